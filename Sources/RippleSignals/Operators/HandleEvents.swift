import Synchronization

// Invariants: the hooks run on the thread of the event they watch, before it goes downstream (`subscribed` before
// the source's action runs); the signal's events pass unchanged. `disposed` runs only when the subscription ends
// without an error or a completion passing through (disposed, or released), exactly once; after a terminal event it
// never runs. Per subscription: the flag that tells the two apart lives in the subscription's closure context.

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
    ///   - error: runs with the error, before it is delivered.
    ///   - complete: runs on completion, before it is delivered.
    ///   - disposed: runs when the subscription ends without an error or a completion (disposed or released), once
    ///     (Combine's `receiveCancel`).
    public func handleEvents(subscribed: (@Sendable () -> Void)? = nil,
                             value: (@Sendable (Value) -> Void)? = nil,
                             error: (@Sendable (Failure) -> Void)? = nil,
                             complete: (@Sendable () -> Void)? = nil,
                             disposed: (@Sendable () -> Void)? = nil) -> Signal {
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            subscribed?()
            let terminated = TerminalFlag()
            let upstream = source.subscribe(SignalSubscriber(
                value: { received in
                    value?(received)
                    downstream.send(received)
                },
                error: { failure in
                    terminated.set()
                    error?(failure)
                    downstream.sendError(failure)
                },
                complete: {
                    terminated.set()
                    complete?()
                    downstream.sendComplete()
                }))
            return Disposer {
                if !terminated.isSet {
                    disposed?()
                }
                upstream.dispose()
            }
        }
    }
}

/// Whether a terminal event passed a `handleEvents` subscription: set by the delivering thread, read by whichever
/// thread runs the cleanup (after the terminal callback when the event ended it, so the store is visible).
final class TerminalFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() {
        flag.store(true, ordering: .releasing)
    }

    var isSet: Bool {
        flag.load(ordering: .acquiring)
    }
}
