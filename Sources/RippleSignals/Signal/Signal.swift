import RippleCore

/// A cold stream of events: any number of values, then at most one error or completion.
///
/// A signal is a recipe. Nothing happens until it is subscribed; then its action runs for that subscriber alone,
/// so two subscriptions never share operator state (counters, last values, zip slots).
///
/// ```swift
/// let signal = Signal<String, any Error> { subscriber in
///     subscriber.send("1")
///     subscriber.sendComplete()
///     return Disposer { /* release resources */ }
/// }
/// let disposer = signal.subscribe(value: { print($0) }, error: { print($0) }, complete: { print("done") })
/// disposer.dispose()
/// ```
public struct Signal<Value: Sendable, Failure: Error>: Sendable {
    // Exactly one of `action`, `fused` and `justValue` is set. (Optionals rather than an enum: Swift 6.3 crashes
    // mangling a pack element archetype when `subscribeEach` iterates a pack of signals holding an enum.)
    /// What subscribing runs, unless `fused` is set.
    @usableFromInline let action: (@Sendable (Subscriber<Value, Failure>) -> Disposer)?
    /// Set for map, filter and just (see ``fused(_:)``): subscribes with raw callbacks, which it calls following
    /// the grammar (values one at a time, never concurrently, then at most one terminal event) — through the head
    /// subscriber of a map/filter chain, or by construction (just).
    @usableFromInline let fused: Fused?
    /// Set for `just`: the value is stored in the signal itself rather than captured by a closure, so making a
    /// `just` allocates nothing, and flattenMap delivers it inline without subscribing to it.
    @usableFromInline let justValue: Value?

    /// Subscribes with raw callbacks: `value` gets this signal's values, `error` and `complete` its terminal events.
    @usableFromInline typealias Fused = @Sendable (_ value: @escaping @Sendable (Value) -> Void,
                                                   _ error: @escaping @Sendable (Failure) -> Void,
                                                   _ complete: @escaping @Sendable () -> Void) -> Disposer

    /// True when this signal calls its subscriber only from another ``Subscriber``'s callbacks (map, filter): those
    /// are already one at a time, never re-entrant, so the subscriber can skip its own queue (see
    /// `Subscriber.isFedSerially`).
    @usableFromInline var deliversSerially: Bool {
        action == nil
    }

    /// Creates a signal whose `action` runs once per subscription.
    ///
    /// The action sends events to the subscriber (now or later, from any thread) and returns the ``Disposer`` that
    /// releases what it set up. That disposer runs exactly once: when the subscription is disposed, right after the
    /// terminal event's callback, or when nothing references the subscriber any more.
    public init(_ action: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposer) {
        self.action = action
        fused = nil
        justValue = nil
    }

    @usableFromInline
    init(fused: @escaping Fused) {
        action = nil
        self.fused = fused
        justValue = nil
    }

    /// A signal that sends `value` on the subscribing thread, then completes (see ``just(_:)``).
    @usableFromInline
    init(justValue value: Value) {
        action = nil
        fused = nil
        justValue = value
    }

    /// For map and filter, which only transform or drop values and pass terminal events through unchanged.
    ///
    /// A chain of them needs no subscriber per operator: the upstream's subscriber already enforces the grammar and
    /// delivers one value at a time, so each operator becomes one closure wrapped around its downstream's value
    /// callback, and one subscriber at the chain's head calls the composed closure. A subscriber at the chain's end
    /// is fed by that head subscriber's callbacks, hence `deliversSerially`.
    @inlinable
    static func fused(_ attach: @escaping Fused) -> Signal {
        Signal(fused: attach)
    }

    /// Subscribes with raw callbacks, through one subscriber for a whole map/filter chain (see ``fused(_:)``).
    @inlinable
    func attach(value: @escaping @Sendable (Value) -> Void,
                error: @escaping @Sendable (Failure) -> Void,
                complete: @escaping @Sendable () -> Void) -> Disposer {
        if let fused {
            return fused(value, error, complete)
        }
        if let justValue {
            // One value, then completion, on the subscribing thread: the grammar holds by construction.
            value(justValue)
            complete()
            return .nothing
        }
        return subscribe(Subscriber(value: value, error: error, complete: complete, isFedSerially: false))
    }

    /// Runs the action for `subscriber` and hands it the cleanup.
    ///
    /// The returned disposer is the subscriber's ``SubscriptionCore`` and does not keep `subscriber` alive: a
    /// subscription lives as long as its producer references the subscriber (a timer, a request, an upstream
    /// signal), as in GYSignal, and never because of a forgotten handle. Inlinable so that operators subscribing in
    /// the caller's module read this signal's fields specialised (unspecialised, each optional field read looks its
    /// metadata up).
    @inlinable
    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> Disposer {
        let cleanup = if let action {
            action(subscriber)
        } else if let fused {
            fused({ subscriber.send($0) }, { subscriber.sendError($0) }, { subscriber.sendComplete() })
        } else if let justValue {
            // One value, then completion.
            { () -> Disposer in
                subscriber.send(justValue)
                subscriber.sendComplete()
                return Disposer.nothing
            }()
        } else {
            Disposer.nothing
        }
        subscriber.attach(cleanup)
        return subscriber.core
    }
}
