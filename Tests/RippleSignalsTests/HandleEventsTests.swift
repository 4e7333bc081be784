// handleEvents and debug: the hooks see every event, in order, once; the events pass unchanged.
import RippleCore
import RippleSignals
import RippleTesting
import Testing

@Suite("handleEvents and debug on signals")
struct HandleEventsTests {
    @Test("handleEvents: subscribed before the action, each value and the completion before delivery; no disposed")
    func completion() {
        let log = Recorder<String>()
        let signal = Signal<Int, Never> { subscriber in
            log.record("action")
            subscriber.send(1)
            subscriber.send(2)
            subscriber.sendComplete()
            return .empty
        }
        let subscription = signal
            .handleEvents(subscribed: { log.record("subscribed") }, value: { log.record("hook \($0)") },
                          complete: { log.record("hook complete") },
                          disposed: { log.record("hook disposed") })
            .subscribe(value: { log.record("value \($0)") }, complete: { log.record("complete") })
        #expect(log.values == ["subscribed", "action", "hook 1", "value 1", "hook 2", "value 2", "hook complete",
                               "complete"])
        #expect(subscription.isDisposed)
    }

    @Test("handleEvents: the error, typed, before delivery; no disposed after it")
    func error() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let subscription = source.signal
            .handleEvents(error: { log.record("hook error \($0.code)") }, disposed: { log.record("hook disposed") })
            .subscribe(value: { _ in }, error: { log.record("error \($0.code)") })
        source.sendError(TestError(4))
        subscription.dispose()
        #expect(log.values == ["hook error 4", "error 4"])
    }

    @Test("handleEvents: disposed runs once when disposed, and when the handle is released")
    func disposed() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let subscription = source.signal.handleEvents(disposed: { log.record("disposed") })
            .subscribe(value: { log.record("value \($0)") }, error: { _ in })
        source.send(1)
        subscription.dispose()
        subscription.dispose()
        source.send(2)
        #expect(log.values == ["value 1", "disposed"])
        #expect(source.disposals == 1)

        let released = Recorder<String>()
        do {
            let handle = source.signal.handleEvents(disposed: { released.record("disposed") })
                .subscribe(value: { _ in }, error: { _ in })
            _ = handle
        }
        #expect(released.values == ["disposed"])
    }

    @Test("handleEvents as a loading flag: on while a request runs, off on its answer or its cancellation")
    func loadingFlag() {
        let scheduler = TestScheduler()
        let loading = Recorder<Bool>()
        let request = Signal<String, Never>.just("answer").delay(.seconds(2), on: scheduler)
            .handleEvents(subscribed: { loading.record(true) }, complete: { loading.record(false) },
                          disposed: { loading.record(false) })
        let answered = request.subscribe(value: { _ in })
        scheduler.advance(by: .seconds(2))
        #expect(loading.values == [true, false])
        #expect(answered.isDisposed)
        let cancelled = request.subscribe(value: { _ in })
        scheduler.advance(by: .seconds(1))
        cancelled.dispose()
        #expect(loading.values == [true, false, true, false])
    }

    @Test("debug prints every event with its prefix, to the given output")
    func debugLog() {
        let lines = Recorder<String>()
        let completed = Signal<Int, Never>.empty.prepend(1, 2).debug("numbers", to: { lines.record($0) })
            .subscribe(value: { _ in })
        #expect(lines.values == ["numbers: subscribed", "numbers: value 1", "numbers: value 2", "numbers: complete"])
        #expect(completed.isDisposed)

        let failing = Recorder<String>()
        let failed = Signal<Int, TestError>.fail(TestError(2)).debug(to: { failing.record($0) })
            .subscribe(value: { _ in }, error: { _ in })
        #expect(failing.values == ["subscribed", "error TestError(code: 2)"])
        #expect(failed.isDisposed)

        let source = ManualSource<Int, TestError>()
        let disposedLines = Recorder<String>()
        let running = source.signal.debug("s", to: { disposedLines.record($0) }).subscribe(value: { _ in },
                                                                                         error: { _ in })
        source.send(7)
        running.dispose()
        #expect(disposedLines.values == ["s: subscribed", "s: value 7", "s: disposed"])
    }
}

@Suite("Readable descriptions of disposers and tokens")
struct DescriptionTests {
    @Test("a subscription's disposer says it is one, and whether it is active")
    func subscriptionDisposer() {
        let source = ManualSource<Int, TestError>()
        let handle = source.signal.subscribe(value: { _ in }, error: { _ in })
        #expect("\(handle)" == "Disposer(subscription, active)")
        handle.dispose()
        #expect("\(handle)" == "Disposer(subscription, ended)")
        let chained = source.signal.map { $0 }.subscribe(value: { _ in }, error: { _ in })
        #expect(String(describing: chained) == "Disposer(subscription, active)")
        let fused = source.signal.flatMap { Signal.just($0) }.subscribe(value: { _ in }, error: { _ in })
        #expect(String(describing: fused) == "Disposer(subscription, active)")
        fused.dispose()
        #expect(String(describing: fused) == "Disposer(subscription, ended)")
        chained.dispose()
    }

    @Test("a cleanup disposer, the empty one, bags and closure tokens")
    func others() {
        let cleanup = Disposer {}
        #expect("\(cleanup)" == "Disposer(cleanup, pending)")
        cleanup.dispose()
        #expect("\(cleanup)" == "Disposer(cleanup, done)")
        #expect("\(Disposer.empty)" == "Disposer(empty, ended)")
        #expect("\(Signal<Int, Never>.just(1).subscribe(value: { _ in }))" == "Disposer(empty, ended)")
        let bag = CancelBag()
        let token = ClosureCancelToken {}
        #expect("\(token)" == "ClosureCancelToken(active)")
        token.store(in: bag)
        Disposer {}.store(in: bag)
        #expect("\(bag)" == "CancelBag(2 entries, active)")
        bag.cancel()
        #expect("\(bag)" == "CancelBag(0 entries, cancelled)")
        #expect("\(token)" == "ClosureCancelToken(cancelled)")
    }
}
