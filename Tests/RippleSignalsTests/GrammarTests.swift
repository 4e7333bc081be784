import Dispatch
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("Event grammar, disposal and cleanup")
struct GrammarTests {
    @Test("error and complete are exclusive, and nothing is delivered after either")
    func exclusivity() {
        let recorder = Recorder<Event<Int>>()
        let source = ManualSource<Int, TestError>()
        source.signal.record(into: recorder)
        source.send(1)
        source.sendComplete()
        source.sendError(TestError(9))
        source.send(2)
        source.sendComplete()
        #expect(recorder.values == [.value(1), .complete])

        let second = Recorder<Event<Int>>()
        let failing = ManualSource<Int, TestError>()
        failing.signal.record(into: second)
        failing.sendError(TestError(5))
        failing.sendComplete()
        failing.send(3)
        failing.sendError(TestError(6))
        #expect(second.values == [.error(5)])
    }

    @Test("dispose is idempotent")
    func disposeIdempotent() {
        let cleanups = Recorder<Int>()
        // The action's producer keeps the subscriber referenced, so only dispose() can end it.
        let held = Locked<[SignalSubscriber<Int, TestError>]>([])
        let signal = Signal<Int, TestError> { subscriber in
            held.withLock { $0.append(subscriber) }
            return Disposer { cleanups.record(2) }
        }
        let subscription = signal.subscribe(value: { _ in }, error: { _ in })
        #expect(!subscription.isDisposed)
        subscription.dispose()
        subscription.dispose()
        subscription.dispose()
        #expect(subscription.isDisposed)
        #expect(cleanups.values.filter { $0 == 2 } == [2])

        let plain = Disposer { cleanups.record(3) }
        plain.dispose()
        plain.cancel()
        #expect(plain.isDisposed && plain.isCancelled)
        #expect(cleanups.values.filter { $0 == 3 } == [3])
    }

    @Test("Disposer.empty is one shared disposer, disposed from the start; a subscription returning it still ends")
    func emptyDisposerIsShared() {
        #expect(Disposer.empty === Disposer.empty)
        #expect(Disposer.empty.isDisposed)
        Disposer.empty.dispose()
        #expect(Disposer.empty.isDisposed)

        let held = Locked<[SignalSubscriber<Int, TestError>]>([])
        let signal = Signal<Int, TestError> { subscriber in
            held.withLock { $0.append(subscriber) }
            return .empty
        }
        let first = signal.subscribe(value: { _ in }, error: { _ in })
        let second = signal.subscribe(value: { _ in }, error: { _ in })
        #expect(!first.isDisposed && !second.isDisposed)
        first.dispose()
        #expect(first.isDisposed && !second.isDisposed)
        #expect(held.withLock { $0[0].isDisposed && !$0[1].isDisposed })
        second.dispose()
        #expect(second.isDisposed)
    }

    @Test("dispose from 8 threads at once runs the cleanup exactly once", .tags(.stress))
    func disposeThreadSafe() {
        for _ in 0..<200 {
            let cleanups = Recorder<Int>()
            let source = ManualSource<Int, TestError>()
            let cleanupSignal = Signal<Int, TestError> { subscriber in
                let inner = source.signal.subscribe(value: subscriber.send, error: { _ in })
                return Disposer {
                    inner.dispose()
                    cleanups.record(1)
                }
            }
            let subscription = cleanupSignal.subscribe(value: { _ in }, error: { _ in })
            let plain = Disposer { cleanups.record(2) }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                subscription.dispose()
                plain.dispose()
            }
            #expect(cleanups.values.sorted() == [1, 2])
            #expect(source.disposals == 1)
        }
    }

    @Test("cleanup runs after the complete callback")
    func cleanupOnComplete() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let signal = Signal<Int, TestError> { subscriber in
            let inner = source.signal.subscribe(value: subscriber.send, error: { _ in }, complete: subscriber.sendComplete)
            return Disposer {
                inner.dispose()
                log.record("cleanup")
            }
        }
        let disposer = signal.subscribe(value: { _ in }, error: { _ in }, complete: { log.record("complete") })
        source.sendComplete()
        #expect(log.values == ["complete", "cleanup"])
        #expect(disposer.isDisposed)
        disposer.dispose()
        #expect(log.values == ["complete", "cleanup"])
    }

    @Test("cleanup runs after the error callback")
    func cleanupOnError() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let signal = Signal<Int, TestError> { subscriber in
            let inner = source.signal.subscribe(value: { _ in }, error: subscriber.sendError)
            return Disposer {
                inner.dispose()
                log.record("cleanup")
            }
        }
        let kept = CancelBag()
        signal.subscribe(value: { _ in }, error: { log.record("error \($0.code)") }).store(in: kept)
        source.sendError(TestError(4))
        #expect(log.values == ["error 4", "cleanup"])
        #expect(source.disposals == 1)
    }

    @Test("cleanup runs on dispose, once")
    func cleanupOnDispose() {
        let source = ManualSource<Int, TestError>()
        let disposer = source.signal.map { $0 + 1 }.filter { _ in true }.subscribe(value: { _ in }, error: { _ in })
        #expect(source.disposals == 0)
        disposer.dispose()
        #expect(source.disposals == 1)
        source.sendComplete()
        #expect(source.disposals == 1)
    }

    @Test("cleanup runs when nothing references the subscription any more")
    func cleanupWhenDropped() {
        let cleanups = Recorder<String>()
        let kept2 = CancelBag()
        Signal<Int, TestError> { _ in Disposer { cleanups.record("dropped") } }.subscribe(value: { _ in }, error: { _ in }).store(in: kept2)
        #expect(cleanups.values == ["dropped"])

        // A producer that lets go of its subscriber ends the subscription, through an operator chain too.
        let source = ManualSource<Int, TestError>()
        let disposer = source.signal.map { $0 * 2 }.distinctUntilChanged().subscribe(value: { _ in }, error: { _ in })
        #expect(source.disposals == 0)
        source.forgetSubscribers()
        #expect(source.disposals == 1)
        #expect(disposer.isDisposed)
    }

    @Test("the cleanup of an action that completes synchronously runs once the action returns")
    func synchronousCompletionCleanup() {
        let log = Recorder<String>()
        let kept3 = CancelBag()
        Signal<Int, TestError> { subscriber in
            subscriber.send(1)
            subscriber.sendComplete()
            log.record("action returns")
            return Disposer { log.record("cleanup") }
        }.subscribe(value: { _ in }, error: { _ in }, complete: { log.record("complete") }).store(in: kept3)
        #expect(log.values == ["complete", "action returns", "cleanup"])
    }

    @Test("a value sent from inside a callback is delivered after that callback returns")
    func reentrantSendIsQueued() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let kept4 = CancelBag()
        source.signal.subscribe(value: { value in
            log.record("begin \(value)")
            if value == 1 { source.send(2) }
            log.record("end \(value)")
        }, error: { _ in }).store(in: kept4)
        source.send(1)
        #expect(log.values == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    // map and filter subscribers fed by another subscriber skip their own queue: the source's queue must still
    // order a re-entrant send after the callback at the end of the chain.
    @Test("a value sent from inside the callback of a map/filter chain is delivered after that callback returns")
    func reentrantSendThroughChainIsQueued() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let kept5 = CancelBag()
        source.signal.map { $0 * 10 }.filter { _ in true }.map { $0 + 1 }.subscribe(value: { value in
            log.record("begin \(value)")
            if value == 11 { source.send(2) }
            log.record("end \(value)")
        }, error: { _ in }).store(in: kept5)
        source.send(1)
        #expect(log.values == ["begin 11", "end 11", "begin 21", "end 21"])
    }

    @Test("disposing a map/filter chain from inside its value callback stops delivery and cleans up once")
    func disposeChainFromCallback() {
        let values = Recorder<Int>()
        let source = ManualSource<Int, TestError>()
        let handle = Locked<Disposer?>(nil)
        let disposer = source.signal.map { $0 }.filter { _ in true }.subscribe(value: { value in
            values.record(value)
            if value == 2 { handle.value?.dispose() }
        }, error: { _ in })
        handle.withLock { $0 = disposer }
        for value in 1...4 { source.send(value) }
        source.sendComplete()
        #expect(values.values == [1, 2])
        #expect(disposer.isDisposed)
        #expect(source.disposals == 1)
    }
}
