// Invariants: the disposer `subscribe` returns is the subscription's handle — releasing its last reference ends the
// subscription, as disposing it does (the lifetime rule, see the Ripple catalog's "Lifetimes"); keep it in a property
// or a `CancelBag` (`.store(in:)`) to keep the subscription. Only `subscribe` hands one out: operators attach to their
// inputs internally and keep what those return as cleanups, so a chain pays for one handle, at its end. Where the
// signal can fail, `subscribe` takes an error handler: an error is never dropped silently.

extension Signal {
    /// Subscribes with an error handler; the action runs now, for this subscription alone.
    ///
    /// The returned ``Disposer`` is the subscription's handle: dispose it, or release it, and the subscription
    /// ends (nothing more is delivered, the action's cleanup runs). Keep it in a property, or in a bag:
    ///
    /// ```swift
    /// let bag = CancelBag()
    /// Signal<Int, any Error>.just(1)
    ///     .subscribe(value: { print($0) }, error: { print("failed:", $0) })
    ///     .store(in: bag)
    /// ```
    ///
    /// Not `@discardableResult`: a dropped handle ends the subscription at once, so the compiler warns. A signal that
    /// can fail needs `error:` (and `value:`: write `value: { _ in }` to watch only the end); to ignore errors, say
    /// so with an operator that makes `Never` (``replaceError(with:)``, `catch`), or write `error: { _ in }`.
    // `value` has no default: with one, a trailing closure (`subscribe { print($0) }`) on a `Never` signal would
    // bind to `error` here (the forward scan skips a defaulted parameter before a required one) and be dead code;
    // without one, such a call only matches the `Failure == Never` form, where it is the value callback.
    @inlinable
    public func subscribe(value: @escaping @Sendable (Value) -> Void,
                          error: @escaping @Sendable (Failure) -> Void,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        subscribeReturningHandle(value: value, error: error, complete: complete)
    }

    /// `subscribe(value:error:complete:)` with every callback optional, for this module's own forms that forward
    /// callbacks they were given (`subscribeOnMainActor`). Returns the subscription's handle.
    @inlinable
    func subscribeReturningHandle(value: (@Sendable (Value) -> Void)?,
                                         error: (@Sendable (Failure) -> Void)?,
                                         complete: (@Sendable () -> Void)?) -> Disposer {
        if case .action = body {
            // Attaching through an action always hands back the subscriber's core: the handle is built over it
            // directly, without `subscriptionHandle(_:)`'s dynamic type tests.
            let subscriber = SignalSubscriber(value: value, error: error, complete: complete)
            _ = subscribe(subscriber)
            return subscriptionHandle(over: subscriber.core)
        }
        return subscriptionHandle(attachAsRoot(Callbacks(value: value, error: error, complete: complete)))
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
    /// Subscribes to a signal that cannot fail; the returned ``Disposer`` is the subscription's handle, as for
    /// ``subscribe(value:error:complete:)``: keep it, or the subscription ends.
    @inlinable
    public func subscribe(value: (@Sendable (Value) -> Void)? = nil,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        subscribeReturningHandle(value: value, error: nil, complete: complete)
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
