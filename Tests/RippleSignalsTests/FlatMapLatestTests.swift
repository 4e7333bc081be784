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

    // The fused switch calls the downstream's callbacks itself (no subscriber between): its ordered hand-off must
    // queue what arrives while a callback runs, on the same thread too, and drop it after disposal.

    @Test("re-entrant: a callback that switches to a just gets that value after its own returns, in order")
    func reentrantSwitch() {
        let source = ManualSource<Int, Never>()
        let slow = ManualSource<Int, Never>()
        let detector = OverlapDetector()
        let received = Recorder<Int>()
        let disposer = source.signal.flatMapLatest { $0 == 0 ? slow.signal : .just($0) }.subscribe(value: { value in
            detector.enter()
            received.record(value)
            if value == 10 { source.send(20) }  // supersedes `slow` while its value is being delivered
            detector.leave()
        })
        source.send(0)
        slow.send(10)
        #expect(received.values == [10, 20])
        #expect(detector.overlaps == 0)
        #expect(slow.disposals == 1)
        slow.send(11)  // superseded: dropped
        #expect(received.values == [10, 20])
        #expect(!disposer.isDisposed)
        disposer.dispose()
        #expect(source.disposals == 1)
    }

    @Test("re-entrant: a callback that disposes drops what queued behind it; a queued completion too")
    func reentrantDisposal() {
        let source = ManualSource<Int, Never>()
        let slow = ManualSource<Int, Never>()
        let handle = Locked<Disposer?>(nil)
        let received = Recorder<Int>()
        let completions = Locked(0)
        let subscribed = source.signal.flatMapLatest { $0 == 0 ? slow.signal : .just($0) }.subscribe(
            value: { value in
                received.record(value)
                if value == 10 {
                    source.send(20)  // queued behind this callback
                    source.sendComplete()  // the completion too, behind it
                    handle.value?.dispose()
                }
            },
            complete: { completions.withLock { $0 += 1 } })
        handle.withLock { $0 = subscribed }
        source.send(0)
        slow.send(10)
        #expect(received.values == [10])
        #expect(completions.value == 0)
        #expect(handle.value?.isDisposed == true)
        #expect(slow.disposals == 1)
    }

    @Test("re-entrant: disposed by the first of two queued values' callback, the second is dropped")
    func disposedMidQueue() {
        let source = ManualSource<Int, Never>()
        let slow = ManualSource<Int, Never>()
        let handle = Locked<Disposer?>(nil)
        let received = Recorder<Int>()
        let subscribed = source.signal.flatMapLatest { $0 == 0 ? slow.signal : .just($0) }.subscribe(value: { value in
            received.record(value)
            if value == 10 {
                source.send(20)  // both queued behind this callback
                source.send(30)
            }
            if value == 20 { handle.value?.dispose() }
        })
        handle.withLock { $0 = subscribed }
        source.send(0)
        slow.send(10)
        #expect(received.values == [10, 20])
        #expect(subscribed.isDisposed)
    }

    @Test("threads: values, switches and an error or a disposal racing: one callback at a time, nothing after the end",
          .tags(.stress))
    func racingEnd() {
        for round in 0..<200 {
            let source = ManualSource<Int, TestError>()
            let inners = Locked<[SignalSubscriber<Int, TestError>]>([])
            let detector = OverlapDetector()
            let events = Locked<[String]>([])
            @Sendable func record(_ event: String) {
                detector.enter()
                events.withLock { $0.append(event) }
                detector.leave()
            }
            // Even generations are justs the source's thread delivers itself, racing the inner threads' values.
            let disposer = source.signal.flatMapLatest { generation in
                generation % 2 == 0 ? .just(generation) : Signal<Int, TestError> { subscriber in
                    inners.withLock { $0.append(subscriber) }
                    return .empty
                }
            }.subscribe(value: { _ in record("value") }, error: { _ in record("error") },
                        complete: { record("complete") })
            source.send(0)
            let failing = round % 2 == 0
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                switch thread {
                case 0: for generation in 1...300 { source.send(generation) }
                case 1, 2: for value in 0..<300 { inners.withLock { $0.last }?.send(value) }
                default:
                    for value in 0..<100 { inners.withLock { $0.last }?.send(value) }
                    if failing { source.sendError(TestError(round)) } else { disposer.dispose() }
                }
            }
            let ended = events.value
            for inner in inners.value { inner.send(99) }
            source.send(100)
            #expect(events.value == ended, "delivered after the end (round \(round))")
            #expect(detector.overlaps == 0)
            #expect(ended.filter { $0 != "value" } == (failing ? ["error"] : []))
            let lastIsTheError = ended.last == "error"
            #expect(lastIsTheError == failing)
            #expect(disposer.isDisposed)
            #expect(inners.value.allSatisfy { $0.isDisposed }, "an inner was left subscribed (round \(round))")
            #expect(source.disposals == 1)
        }
    }

    @Test("a subscription that ended while it was made hands out an ended disposer, and frees its state at once")
    func endedWhileSubscribing() {
        final class Probe: Sendable {}
        weak var freed: Probe?
        let received = Recorder<Int>()
        let disposer: Disposer
        do {
            let probe = Probe()
            freed = probe
            disposer = Signal<Int, Never>.just(1).map { Signal<Int, Never>.just($0 + 1) }.switchToLatest()
                .flatMapLatest { .just($0 * 10) }
                .subscribe(value: { [probe] value in
                    withExtendedLifetime(probe) { received.record(value) }
                })
        }
        #expect(received.values == [20])
        #expect(disposer.isDisposed)
        #expect(freed == nil, "the states (and the callbacks they hold) outlived the subscription")
        disposer.dispose()
    }
}
