import RippleCore

// Invariants: a timer of `interval` runs from the subscription and restarts at every value; if it fires first, the
// source is disposed (never subscribed, if it fired before that) and the result completes (or fails with
// `customError()`). A source's error or completion
// cancels the timer. Disposal cancels both. The callbacks own the downstream; the cleanup owns only the timer and
// the source's disposer.

extension Signal {
    /// Ends the result if `interval` passes on `scheduler` without a value (counting from the subscription, then
    /// from each value): it completes, or fails with `customError()` when given (Combine's `timeout`).
    public func timeout(_ interval: Duration, on scheduler: some Scheduling,
                        customError: (@Sendable () -> Failure)? = nil) -> Signal {
        requirePositive(interval, "Signal.timeout(_:on:customError:)")
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let state = TimeoutState()
            @Sendable func arm() {
                let generation = state.bump()
                let timer = scheduler.schedule(after: interval) {
                    guard state.expire(generation) else { return }
                    if let customError {
                        downstream.sendError(customError())
                    } else {
                        downstream.sendComplete()
                    }
                }
                state.keep(timer, for: generation)
            }
            arm()
            // Fired already (an immediate scheduler, or a tiny interval on another thread): the result has ended, so
            // the source (a request, say) is not started for nothing.
            guard state.isLive else { return .empty }
            let upstream = source.subscribe(SignalSubscriber(
                value: { value in
                    guard state.isLive else { return }
                    arm()
                    downstream.send(value)
                },
                error: { error in
                    state.end()
                    downstream.sendError(error)
                },
                complete: {
                    state.end()
                    downstream.sendComplete()
                }))
            state.keepSource(upstream)
            return Disposer { state.end() }
        }
    }
}

/// The timer of one `timeout` subscription: a generation per arming, so a timer that fires after being superseded
/// does nothing. `@unchecked Sendable`: state guarded by `lock`.
final class TimeoutState: @unchecked Sendable {
    private let lock = Lock()
    private var generation = 0
    private var timer: (any CancelToken)?
    private var source: Disposer?
    private var ended = false

    var isLive: Bool { lock.withLock { !ended } }

    /// Starts a new generation, cancelling the previous timer.
    func bump() -> Int {
        let (current, previous) = lock.withLock { () -> (Int, (any CancelToken)?) in
            generation += 1
            defer { timer = nil }
            return (generation, timer)
        }
        previous?.cancel()
        return current
    }

    func keep(_ token: any CancelToken, for generation: Int) {
        let stale = lock.withLock { () -> Bool in
            guard !ended, generation == self.generation else { return true }
            timer = token
            return false
        }
        if stale { token.cancel() }
    }

    func keepSource(_ disposer: Disposer) {
        let dispose = lock.withLock { () -> Bool in
            if ended { return true }
            source = disposer
            return false
        }
        if dispose { disposer.dispose() }
    }

    /// The timer of `generation` fired: true (and the state ended, the source disposed) if it is still current.
    func expire(_ generation: Int) -> Bool {
        let taken = lock.withLock { () -> (Bool, Disposer?) in
            guard !ended, generation == self.generation else { return (false, nil) }
            ended = true
            timer = nil
            defer { source = nil }
            return (true, source)
        }
        taken.1?.dispose()
        return taken.0
    }

    /// Cancels the timer and disposes the source (once).
    func end() {
        let (token, disposer) = lock.withLock { () -> ((any CancelToken)?, Disposer?) in
            ended = true
            defer {
                timer = nil
                source = nil
            }
            return (timer, source)
        }
        token?.cancel()
        disposer?.dispose()
    }
}
