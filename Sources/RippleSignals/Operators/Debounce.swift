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
                            guard state.generation == generation, let due = state.pending else { return nil }
                            state.pending = nil
                            state.handOff.begin()
                            return due
                        }
                        guard let due else { return }
                        #if RIPPLE_INTERNAL_CHECKS
                        debounceHandOffHook.withLock { hook in defer { hook = nil }; return hook }?()
                        #endif
                        downstream.send(due)
                        // A completion that came meanwhile (another thread) was left to this hand-off, so that it
                        // cannot overtake `due` (see `CompletionHandOff`).
                        state.finishHandOff(\.handOff, to: downstream)
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
                    let (timer, pending, deferred) = state.withLock { state in
                        let pending = state.pending
                        let timer = state.cancel()
                        return (timer, pending, state.handOff.deferCompletion(flushing: pending))
                    }
                    timer?.cancel()
                    if deferred { return }  // the timer's hand-off sends `pending` and the completion after its value
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
    /// A timer sending the value it took, outside the lock.
    var handOff = CompletionHandOff<Value>()

    /// Forgets the pending value and timer (bumping the generation so a running timer emits nothing); returns the
    /// timer for the caller to cancel outside the lock.
    mutating func cancel() -> (any CancelToken)? {
        generation += 1
        pending = nil
        defer { timer = nil }
        return timer
    }
}

#if RIPPLE_INTERNAL_CHECKS
/// Runs once, if set, between a timer taking the due value and sending it: where a test holds that gap open while
/// another thread completes (no scheduler call lies in it to hook, as `throttle`'s tests do).
let debounceHandOffHook = Locked<(@Sendable () -> Void)?>(nil)
#endif
