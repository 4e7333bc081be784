import Dispatch
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("flatMapLatest and switchToLatest (marbles: one character per virtual second)")
struct FlatMapLatestTests {
    /// Inner signals by the source value that selects them.
    static func inners(_ diagrams: [String: String], on scheduler: TestScheduler) -> [String: MarbleSource] {
        diagrams.mapValues { MarbleSource($0, on: scheduler) }
    }

    @Test("a newer inner supersedes the previous one, which is disposed at once")
    func switches() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b---|", on: scheduler)
        let inner = Self.inners(["a": "-1--2|", "b": "-3-4|"], on: scheduler)
        let result = source.signal.flatMapLatest { inner[$0]!.signal }
        #expect(marbles(of: result, on: scheduler) == "-1-3-4|")
        #expect(inner["a"]!.subscribedAt == [0])
        #expect(inner["a"]!.disposedAt == [2])
        #expect(inner["b"]!.subscribedAt == [2])
    }

    @Test("completes once the source and the latest inner have completed")
    func completion() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a|", on: scheduler)
        let inner = Self.inners(["a": "-1--2|"], on: scheduler)
        #expect(marbles(of: source.signal.flatMapLatest { inner[$0]!.signal }, on: scheduler) == "-1--2|")

        let early = MarbleSource("a----|", on: scheduler)
        let short = Self.inners(["a": "1|"], on: scheduler)
        #expect(marbles(of: early.signal.flatMapLatest { short[$0]!.signal }, on: scheduler) == "1----|")
    }

    @Test("the latest inner's error ends the result and disposes the source; a superseded inner's cannot")
    func errors() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b-----|", on: scheduler)
        let inner = Self.inners(["a": "---#", "b": "-1--#"], on: scheduler)
        #expect(marbles(of: source.signal.flatMapLatest { inner[$0]!.signal }, on: scheduler) == "---1--#")
        #expect(source.disposedAt == [6])

        let failing = MarbleSource("a-#", on: scheduler)
        let slow = Self.inners(["a": "----1|"], on: scheduler)
        let start = scheduler.seconds
        #expect(marbles(of: failing.signal.flatMapLatest { slow[$0]!.signal }, on: scheduler) == "--#")
        #expect(slow["a"]!.disposedAt == [start + 2])
    }

    @Test("disposal disposes the source and the latest inner")
    func disposal() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a---b|", on: scheduler)
        let inner = Self.inners(["a": "-1-2-3|", "b": "4|"], on: scheduler)
        #expect(marbles(of: source.signal.flatMapLatest { inner[$0]!.signal }, on: scheduler, disposingAt: 3) == "-1")
        #expect(source.disposedAt == [3])
        #expect(inner["a"]!.disposedAt == [3])
        #expect(inner["b"]!.subscribedAt.isEmpty)
    }

    @Test("inner justs are delivered at once; switchToLatest is flatMapLatest { $0 }")
    func justsAndSwitch() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b|", on: scheduler)
        #expect(marbles(of: source.signal.flatMapLatest { .just($0.uppercased()) }, on: scheduler) == "A-B|")
        let signals = MarbleSource("a-b--|", on: scheduler)
        let inner = Self.inners(["a": "-1-2|", "b": "--3|"], on: scheduler)
        let nested: Signal<Signal<String, TestError>, TestError> = signals.signal.map { inner[$0]!.signal }
        #expect(marbles(of: nested.switchToLatest(), on: scheduler) == "-1--3|")
    }

    @Test("a stale inner never arrives after a newer one, even when the newer answers first")
    func staleNeverAfterNewer() {
        let scheduler = TestScheduler()
        let source = MarbleSource("ab|", on: scheduler)
        // "a" answers after 5 s, "b" after 1 s: a merging flatMap delivers B then the stale A.
        let inner = Self.inners(["a": "-----(A|)", "b": "-(B|)"], on: scheduler)
        #expect(marbles(of: source.signal.flatMap { inner[$0]!.signal }, on: scheduler) == "--B--(A|)")
        let latest = Self.inners(["a": "-----(A|)", "b": "-(B|)"], on: scheduler)
        #expect(marbles(of: source.signal.flatMapLatest { latest[$0]!.signal }, on: scheduler) == "--(B|)")
    }

    @Test("threads: values from many inners on many threads never arrive out of generation order")
    func concurrentSwitching() async {
        // Each inner sends its generation number from a thread of its own while the source keeps switching; the
        // downstream must see a non-decreasing sequence.
        let source = ManualSource<Int, Never>()
        let received = Recorder<Int>()
        let disposer = source.signal.flatMapLatest { generation in
            Signal<Int, Never> { subscriber in
                DispatchQueue.global().async {
                    for _ in 0..<50 { subscriber.send(generation) }
                }
                return .empty
            }
        }.subscribe(value: { received.record($0) })
        for generation in 0..<200 {
            source.send(generation)
        }
        while received.values.last != 199 { await Task.yield() }
        let values = received.values
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "out of order: \(values)")
        disposer.dispose()
    }
}
