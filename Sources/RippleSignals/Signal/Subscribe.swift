extension Signal {
    /// Subscribes with optional callbacks; the action runs now, for this subscription alone.
    ///
    /// The subscription lives as long as the signal's producer references its subscriber (as in GYSignal: a
    /// subscriber that is released disposes itself). Dispose the returned ``Disposer`` to end it earlier.
    ///
    /// Not `@discardableResult` (issue 18): dropping the disposer leaves the subscription to its producer's lifetime,
    /// which for a never-ending source is the program's, so the compiler warns; write `_ =` when that is intended.
    /// Releasing the disposer never ends the subscription (it is not Combine's `AnyCancellable`).
    @inlinable
    public func subscribe(value: (@Sendable (Value) -> Void)? = nil,
                          error: (@Sendable (Failure) -> Void)? = nil,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        if case .action = body {
            return subscribe(SignalSubscriber(value: value, error: error, complete: complete))
        }
        return attachAsRoot(Callbacks(value: value, error: error, complete: complete))
    }

    /// `attach(_:)` as this thread's root when none runs: a fused chain makes no subscriber at its top to be one,
    /// and its subscription may queue a cut (see `SubscriptionTrampoline`).
    @inlinable
    func attachAsRoot(_ callbacks: Callbacks<Value, Failure>) -> Disposer {
        let began = beginRoot()
        let disposer = attach(callbacks)
        endRoot(began)
        return disposer
    }

    /// Subscribes `callbacks` to a map/filter chain or a `just` (a signal made with an action gets a subscriber
    /// instead). Those call raw callbacks following the grammar themselves (through the chain's head subscriber, or
    /// by construction: see ``attach(value:keep:error:complete:)``), so they get the callbacks directly: no
    /// subscriber at the chain's end, and one hop fewer per value. The disposer is then the head subscriber's
    /// (``Disposer/ended`` for a `just`).
    @inlinable
    func attach(_ callbacks: Callbacks<Value, Failure>) -> Disposer {
        // Each closure captures only `callbacks`, so none allocates a context.
        return attach(value: { callbacks.value?($0) }, error: { callbacks.error?($0) },
                      complete: { callbacks.complete?() })
    }
}

extension Signal where Failure == Never {
    /// Subscribes to a signal that cannot fail. Not `@discardableResult`, like the general form.
    @inlinable
    public func subscribe(value: (@Sendable (Value) -> Void)? = nil,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        if case .action = body {
            return subscribe(SignalSubscriber(value: value, error: nil, complete: complete))
        }
        return attachAsRoot(Callbacks(value: value, error: nil, complete: complete))
    }
}

/// The callbacks of one `subscribe(value:error:complete:)`, in one object so that closures over them capture only
/// it (a closure capturing one object allocates no context of its own).
@usableFromInline @_fixed_layout
final class Callbacks<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let value: (@Sendable (Value) -> Void)?
    @usableFromInline let error: (@Sendable (Failure) -> Void)?
    @usableFromInline let complete: (@Sendable () -> Void)?

    @inlinable
    init(value: (@Sendable (Value) -> Void)?, error: (@Sendable (Failure) -> Void)?,
         complete: (@Sendable () -> Void)?) {
        self.value = value
        self.error = error
        self.complete = complete
    }
}
