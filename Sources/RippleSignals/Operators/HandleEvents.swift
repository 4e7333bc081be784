import Synchronization

// Invariants: the hooks run on the thread of the event they watch, before it goes downstream (`subscribed` before
// the source's action runs); the signal's events pass unchanged. A subscription ends once, claimed by whichever
// comes first: a terminal event (its `error` or `complete` hook runs) or the cleanup, on disposal or release (the
// `disposed` hook runs): never both. A flag set by the terminal callback and read by the cleanup let a disposal on
// another thread read it before the terminal callback set it, and both hooks ran. Per subscription: the claim
// lives in the subscription's closure context.

extension Signal {
    /// Runs side effects on a subscription's events without changing them (Combine's `handleEvents`, RxSwift's
    /// `do`): a loading flag, a log line, a counter.
    ///
    /// ```swift
    /// import Ripple
    ///
    /// let loading = ObservableProperty(false)
    /// let subscription = Signal<Int, Never>.just(42)
    ///     .handleEvents(subscribed: { loading.value = true },
    ///                   complete: { loading.value = false },
    ///                   disposed: { loading.value = false })
    ///     .subscribe(value: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - subscribed: runs when a subscription starts, before the source's action.
    ///   - value: runs with each value, before it is delivered.
    ///   - error: runs with the error, before it is delivered (not if the subscription was disposed first).
    ///   - complete: runs on completion, before it is delivered (not if the subscription was disposed first).
    ///   - disposed: runs when the subscription ends without an error or a completion (disposed or released), once
    ///     (Combine's `receiveCancel`). A subscription's end runs exactly one of `error`, `complete` and `disposed`,
    ///     even when a disposal races the terminal event on another thread.
    public func handleEvents(subscribed: (@Sendable () -> Void)? = nil,
                             value: (@Sendable (Value) -> Void)? = nil,
                             error: (@Sendable (Failure) -> Void)? = nil,
                             complete: (@Sendable () -> Void)? = nil,
                             disposed: (@Sendable () -> Void)? = nil) -> Signal {
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            subscribed?()
            let end = SubscriptionEnd()
            let upstream = source.subscribe(SignalSubscriber(
                value: { received in
                    value?(received)
                    downstream.send(received)
                },
                error: { failure in
                    // Disposed first: the downstream, ended, drops the error; its hook does not run.
                    if end.claimForTerminalEvent() { error?(failure) }
                    downstream.sendError(failure)
                },
                complete: {
                    if end.claimForTerminalEvent() { complete?() }
                    downstream.sendComplete()
                }))
            return Disposer {
                if end.claimForDisposal() {
                    disposed?()
                }
                upstream.dispose()
            }
        }
    }
}

/// How a `handleEvents` subscription ended, claimed once (see the invariants above): by a terminal event, on the
/// delivering thread, or by the cleanup, on whichever thread disposes or releases the subscription.
final class SubscriptionEnd: Sendable {
    private static var open: UInt8 { 0 }
    private let state = Atomic<UInt8>(SubscriptionEnd.open)

    /// True if a terminal event ends the subscription (its hook runs); false if the cleanup claimed the end first.
    func claimForTerminalEvent() -> Bool {
        state.compareExchange(expected: Self.open, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// True if disposal or release ends the subscription (`disposed` runs); false after a terminal event claimed it.
    func claimForDisposal() -> Bool {
        state.compareExchange(expected: Self.open, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }
}
