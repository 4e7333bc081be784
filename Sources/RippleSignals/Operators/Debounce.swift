import RippleCore

extension Signal {
    /// Emits a value only after `interval` has passed on `scheduler` without another value.
    ///
    /// On completion a pending value is emitted first; an error drops it and is forwarded at once.
    public func debounce(_ interval: Duration, on scheduler: some Scheduling) -> Signal {
        requirePositive(interval, "Signal.debounce(_:on:)")
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let state = Locked(DebounceState<Value>())
            let upstream = source.subscribe(SignalSubscriber(
                value: { value in
                    let (generation, previous) = state.withLock { state in
                        state.generation += 1
                        state.pending = value
                        defer { state.timer = nil }
                        return (state.generation, state.timer)
                    }
                    previous?.cancel()
                    let timer = scheduler.schedule(after: interval) {
                        let due = state.withLock { state -> Value? in
                            guard state.generation == generation else { return nil }
                            defer { state.pending = nil }
                            return state.pending
                        }
                        if let due { downstream.send(due) }
                    }
                    let stale = state.withLock { state -> Bool in
                        guard state.generation == generation, state.pending != nil else { return true }
                        state.timer = timer
                        return false
                    }
                    if stale { timer.cancel() }
                },
                error: { error in
                    state.withLock { $0.cancel() }?.cancel()
                    downstream.sendError(error)
                },
                complete: {
                    let (timer, pending) = state.withLock { state in
                        let pending = state.pending
                        state.pending = nil
                        return (state.cancel(), pending)
                    }
                    timer?.cancel()
                    if let pending { downstream.send(pending) }
                    downstream.sendComplete()
                }))
            return Disposer {
                upstream.dispose()
                state.withLock { $0.cancel() }?.cancel()
            }
        }
    }
}

struct DebounceState<Value> {
    var generation = 0
    var pending: Value?
    var timer: (any CancelToken)?

    /// Forgets the pending value and timer (bumping the generation so a running timer emits nothing); returns the
    /// timer for the caller to cancel outside the lock.
    mutating func cancel() -> (any CancelToken)? {
        generation += 1
        pending = nil
        defer { timer = nil }
        return timer
    }
}
