import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("Everyday operators (marbles: one character per virtual second)")
struct EverydayOperatorTests {
    @Test("compactMap drops nils; error and completion pass through at their time")
    func compactMap() {
        let scheduler = TestScheduler()
        let source = MarbleSource("1a2|", on: scheduler)
        #expect(marbles(of: source.signal.compactMap { Int($0).map { "\($0 * 2)" } }, on: scheduler) == "2-4|")
        let failing = MarbleSource("1#", on: scheduler)
        #expect(marbles(of: failing.signal.compactMap { $0 }, on: scheduler) == "1#")
        let disposed = MarbleSource("1-2-3|", on: scheduler)
        #expect(marbles(of: disposed.signal.compactMap { $0 }, on: scheduler, disposingAt: 3) == "1-2")
        #expect(disposed.disposedAt.count == 1)
    }

    @Test("scan: running results per subscription; error and completion pass through")
    func scan() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b-c|", on: scheduler)
        let joined = source.signal.scan("") { $0 + $1 }.map { "\($0.count)" }
        #expect(marbles(of: joined, on: scheduler) == "1-2-3|")
        #expect(marbles(of: joined, on: scheduler) == "1-2-3|")   // a fresh accumulator
        let failing = MarbleSource("a#", on: scheduler)
        #expect(marbles(of: failing.signal.scan("") { $0 + $1 }, on: scheduler) == "a#")
    }

    @Test("prepend: values first, then the source; disposal while prepending never subscribes the source")
    func prepend() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-a#", on: scheduler)
        #expect(marbles(of: source.signal.prepend("x", "y"), on: scheduler) == "(xy)a#")
        let untouched = MarbleSource("a|", on: scheduler)
        let first = Recorder<String>()
        let kept = CancelBag()
        untouched.signal.prepend(["x", "y"]).take(1).subscribe(value: { first.record($0) }, error: { _ in }).store(in: kept)
        #expect(first.values == ["x"])
        #expect(untouched.subscribedAt.isEmpty)
    }

    @Test("timeout: completes (or fails with the custom error) after the interval without a value")
    func timeout() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b----c|", on: scheduler)
        #expect(marbles(of: source.signal.timeout(.seconds(3), on: scheduler), on: scheduler) == "a-b--|")
        #expect(source.disposedAt == [5])
        let failing = MarbleSource("a----b|", on: scheduler)
        #expect(marbles(of: failing.signal.timeout(.seconds(2), on: scheduler, customError: { TestError(9) }),
                        on: scheduler) == "a-#")
        let quick = MarbleSource("a|", on: scheduler)
        #expect(marbles(of: quick.signal.timeout(.seconds(2), on: scheduler), on: scheduler) == "a|")
        #expect(scheduler.pendingCount == 0)
        let early = MarbleSource("-#", on: scheduler)
        #expect(marbles(of: early.signal.timeout(.seconds(5), on: scheduler), on: scheduler) == "-#")
        let disposed = MarbleSource("a----|", on: scheduler)
        #expect(marbles(of: disposed.signal.timeout(.seconds(3), on: scheduler), on: scheduler, disposingAt: 1) == "a")
        #expect(scheduler.pendingCount == 0)
    }

    @Test("share(): one upstream subscription for every current subscriber; the last to leave disposes it")
    func share() {
        let source = ManualSource<Int, TestError>()
        let shared = source.signal.share()
        let first = Recorder<Event<Int>>()
        let second = Recorder<Event<Int>>()
        let d1 = shared.record(into: first)
        source.send(1)
        let d2 = shared.record(into: second)
        source.send(2)
        #expect(source.subscriptions == 1)
        #expect(first.values == [.value(1), .value(2)])
        #expect(second.values == [.value(2)])
        d1.dispose()
        #expect(source.disposals == 0)
        d2.dispose()
        #expect(source.disposals == 1)
        shared.record(into: first)
        #expect(source.subscriptions == 2)
    }

    @Test("share(replay:): a late subscriber gets the latest values first; completion reaches all and resets")
    func shareReplay() {
        let source = ManualSource<Int, TestError>()
        let shared = source.signal.share(replay: 2)
        let first = Recorder<Event<Int>>()
        let late = Recorder<Event<Int>>()
        shared.record(into: first)
        for value in 1...3 { source.send(value) }
        shared.record(into: late)
        source.send(4)
        source.sendComplete()
        #expect(first.values == [.value(1), .value(2), .value(3), .value(4), .complete])
        #expect(late.values == [.value(2), .value(3), .value(4), .complete])
        let after = Recorder<Event<Int>>()
        shared.record(into: after)
        #expect(after.values.isEmpty)   // a new connection, with an empty buffer
        #expect(source.subscriptions == 2)
    }

    @Test("share: an error reaches every subscriber at its time (marbles)")
    func shareError() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a-b#", on: scheduler)
        let shared = source.signal.share(replay: 1)
        let other = Recorder<String>()
        scheduler.schedule(after: .seconds(1)) {
            other.keep(shared.subscribe(value: { other.record($0) }, error: { _ in other.record("#") }))
        }
        #expect(marbles(of: shared, on: scheduler) == "a-b#")
        #expect(other.values == ["a", "b", "#"])
        #expect(source.subscribedAt == [0])
    }

    @Test("Signal(operation:): the async result, then completion; a thrown error; disposal cancels the task")
    func asyncOperation() async throws {
        let value = Signal<Int, TestError>(operation: { 42 })
        var received: [Int] = []
        for try await element in value.values { received.append(element) }
        #expect(received == [42])

        let failing = Signal<Int, TestError>(operation: { () async throws(TestError) -> Int in throw TestError(3) })
        await #expect(throws: TestError(3)) {
            for try await _ in failing.values {}
        }

        let started = AsyncStream<Void>.makeStream()
        let cancelled = AsyncStream<Bool>.makeStream()
        let slow = Signal<Int, Never>(operation: {
            started.continuation.yield()
            await withTaskCancellationHandler {
                while !Task.isCancelled { await Task.yield() }
            } onCancel: {
                cancelled.continuation.yield(true)
            }
            return 1
        })
        let arrived = Recorder<Int>()
        let disposer = slow.subscribe(value: { arrived.record($0) })
        var startedIterator = started.stream.makeAsyncIterator()
        await startedIterator.next()
        disposer.dispose()
        var cancelledIterator = cancelled.stream.makeAsyncIterator()
        #expect(await cancelledIterator.next() == true)
        #expect(arrived.values.isEmpty)
    }

    @Test("Signal.zip, combineLatest and merge over arrays; an empty array completes at once")
    func arrays() {
        let scheduler = TestScheduler()
        let a = MarbleSource("a-b--|", on: scheduler)
        let b = MarbleSource("-c--d|", on: scheduler)
        let c = MarbleSource("--e-f|", on: scheduler)
        let inputs = [a.signal, b.signal, c.signal]
        #expect(marbles(of: Signal.zip(inputs).map { $0.joined() }.map { String($0.last!) }, on: scheduler)
            == "--e-f|")
        let zipped = Recorder<[String]>()
        let kept3 = CancelBag()
        Signal.zip(inputs).subscribe(value: { zipped.record($0) }, error: { _ in }).store(in: kept3)
        scheduler.run()
        #expect(zipped.values == [["a", "c", "e"], ["b", "d", "f"]])
        let latest = Recorder<[String]>()
        let kept4 = CancelBag()
        Signal.combineLatest(inputs).subscribe(value: { latest.record($0) }, error: { _ in }).store(in: kept4)
        scheduler.run()
        // At 2 s "b" (scheduled first) arrives before "e": no array holds "a" with "e".
        #expect(latest.values == [["b", "c", "e"], ["b", "d", "e"], ["b", "d", "f"]])
        #expect(marbles(of: Signal.merge(inputs), on: scheduler) == "ac(be)-(df)|")
        for empty in [Signal<String, TestError>.zip([]).map { _ in "x" },
                      Signal<String, TestError>.combineLatest([]).map { _ in "x" },
                      Signal<String, TestError>.merge([])] {
            #expect(marbles(of: empty, on: scheduler) == "|")
        }
    }
}
