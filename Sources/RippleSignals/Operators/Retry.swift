import RippleCore

extension Signal {
    /// On error, subscribes to the source again, up to `count` times (so at most `count + 1` subscriptions); the
    /// error after the last attempt is forwarded. Values of every attempt are forwarded.
    ///
    /// A source that fails synchronously is retried in a loop, not by recursion, so large counts cannot overflow
    /// the stack.
    public func retry(_ count: Int) -> Signal {
        requireNonNegative(count, "Signal.retry(_:)")
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let retrying = Retrying(source: upstream, downstream: downstream, retries: count)
            retrying.start()
            return Disposer { retrying.dispose() }
        }
    }
}

/// One `retry` subscription. `@unchecked Sendable`: the mutable state is guarded by `lock`.
///
/// It does not own `downstream`: the downstream's cleanup owns it, and each attempt's subscriber owns the downstream
/// through its value callback, so a source that lets go of its subscriber unended frees the chain (see
/// `CombiningState`). It is only reached from an attempt's callbacks or while subscribing.
final class Retrying<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let source: Signal<Value, Failure>
    /// Not owned (see above): an `UnownedSubscriber`, whose invariant (alive whenever reached) is checked under
    /// `RIPPLE_INTERNAL_CHECKS`.
    private let unownedDownstream: UnownedSubscriber<Value, Failure>
    private var downstream: SignalSubscriber<Value, Failure> { unownedDownstream.subscriber }
    private let retries: Int
    private let lock = Lock()
    private var subscriptions = 0
    private var current: Disposer?
    private var disposed = false
    /// True while `start()`'s loop runs on some thread; a synchronous failure then asks it to go round again.
    private var looping = false
    private var again = false

    init(source: Signal<Value, Failure>, downstream: SignalSubscriber<Value, Failure>, retries: Int) {
        self.source = source
        unownedDownstream = UnownedSubscriber(downstream)
        self.retries = retries
    }

    func start() {
        lock.lock()
        if looping {
            again = true
            lock.unlock()
            return
        }
        looping = true
        lock.unlock()
        while true {
            lock.lock()
            again = false
            // The downstream may be disposed before this subscription's cleanup (which sets `disposed`) is even
            // attached: by a `take` below, from inside an attempt that runs in the action. A synchronously failing
            // source would then be subscribed again up to `retries` times for nothing.
            if disposed || downstream.isDisposed {
                looping = false
                lock.unlock()
                return
            }
            subscriptions += 1
            lock.unlock()
            // Subscribed at the downstream's level at least (see `SubscriptionTrampoline`).
            let disposer = subscribing(above: downstream.level) {
                source.subscribe(SignalSubscriber(
                    value: downstream.send,
                    error: { [self] error in failed(error) },
                    complete: downstream.sendComplete))
            }
            lock.lock()
            current = disposer
            let stop = disposed
            let loop = again && !stop
            if !loop { looping = false }
            lock.unlock()
            if stop { disposer.dispose() }
            if !loop { return }
        }
    }

    private func failed(_ error: Failure) {
        let exhausted = lock.withLock { subscriptions > retries || disposed }
        if exhausted {
            downstream.sendError(error)
        } else {
            start()
        }
    }

    func dispose() {
        let taken = lock.withLock { () -> Disposer? in
            disposed = true
            defer { current = nil }
            return current
        }
        taken?.dispose()
    }
}
