import RippleCore

extension Signal {
    /// Emits at most one value per `interval` on `scheduler`.
    ///
    /// A value arriving while no window is open passes at once and opens a window. Values inside the window are held
    /// (the latest one, or the first when `latest` is false) and the held value is emitted when the window closes,
    /// opening the next. On completion a held value is emitted first; an error drops it.
    public func throttle(_ interval: Duration, on scheduler: some Scheduling, latest: Bool = true) -> Signal {
        requirePositive(interval, "Signal.throttle(_:on:latest:)")
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let state = Locked(ThrottleState<Value>())
            // Closes the current window: emits the held value and opens the next window, or goes idle.
            @Sendable func windowEnded() {
                let held = state.withLock { state -> Value? in
                    guard !state.ended else { return nil }
                    guard let held = state.held else {
                        state.windowOpen = false
                        state.timer = nil
                        return nil
                    }
                    state.held = nil
                    state.handOff.begin()
                    return held
                }
                guard let held else { return }
                let timer = scheduler.schedule(after: interval) { windowEnded() }
                state.keep(timer)
                downstream.send(held)
                // A completion that came meanwhile (another thread) was left to this hand-off, so that it cannot
                // overtake `held` (see `CompletionHandOff`).
                state.finishHandOff(\.handOff, to: downstream)
            }
            let upstream = source.subscribe(SignalSubscriber(
                value: { value in
                    let emitNow = state.withLock { state -> Bool in
                        if state.windowOpen {
                            if latest || state.held == nil { state.held = value }
                            return false
                        }
                        state.windowOpen = true
                        return true
                    }
                    guard emitNow else { return }
                    let timer = scheduler.schedule(after: interval) { windowEnded() }
                    state.keep(timer)
                    downstream.send(value)
                },
                error: { error in
                    state.withLock { $0.end() }?.cancel()
                    downstream.sendError(error)
                },
                complete: {
                    // One lock: a window ending in between would send `held` too.
                    let (held, timer, deferred) = state.withLock { state in
                        let held = state.held
                        let timer = state.end()
                        return (held, timer, state.handOff.deferCompletion(flushing: held))
                    }
                    timer?.cancel()
                    if deferred { return }  // the window's end sends `held` and the completion after its value
                    if let held { downstream.send(held) }
                    downstream.sendComplete()
                }))
            return Disposer {
                upstream.dispose()
                state.withLock { $0.end() }?.cancel()
            }
        }
    }
}

struct ThrottleState<Value> {
    var windowOpen = false
    var held: Value?
    var timer: (any CancelToken)?
    var ended = false
    /// A window's end sending a held value, outside the lock.
    var handOff = CompletionHandOff<Value>()

    mutating func end() -> (any CancelToken)? {
        ended = true
        held = nil
        defer { timer = nil }
        return timer
    }
}

extension Locked {
    /// Keeps `timer` as the current window's timer, or cancels it if the subscription ended meanwhile (else it
    /// would stay scheduled, holding the chain, until it fired).
    func keep<Value>(_ timer: any CancelToken) where State == ThrottleState<Value> {
        let stale = withLock { state -> Bool in
            if state.ended { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }
}
