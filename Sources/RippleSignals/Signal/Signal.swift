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
    let action: @Sendable (Subscriber<Value, Failure>) -> Disposer
    /// True when `action` calls its subscriber only from another ``Subscriber``'s callbacks (map, filter): those are
    /// already one at a time, never re-entrant, so the subscriber can skip its own queue (see `Subscriber.isFedSerially`).
    let deliversSerially: Bool
    /// Set for map and filter (see ``fused(_:)``): subscribes the nearest upstream that is not a map or filter with
    /// the given callbacks, the value callback composed with every map/filter in between.
    @usableFromInline let fused: Fused?

    /// Subscribes with raw callbacks: `value` gets this signal's values, `error` and `complete` its terminal events.
    @usableFromInline typealias Fused = @Sendable (_ value: @escaping @Sendable (Value) -> Void,
                                 _ error: @escaping @Sendable (Failure) -> Void,
                                 _ complete: @escaping @Sendable () -> Void) -> Disposer

    /// Creates a signal whose `action` runs once per subscription.
    ///
    /// The action sends events to the subscriber (now or later, from any thread) and returns the ``Disposer`` that
    /// releases what it set up. That disposer runs exactly once: when the subscription is disposed, right after the
    /// terminal event's callback, or when nothing references the subscriber any more.
    public init(_ action: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposer) {
        self.action = action
        deliversSerially = false
        fused = nil
    }

    /// For operators whose action hands its subscriber only to the callbacks of one upstream ``Subscriber``.
    init(deliversSerially: Bool, _ action: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposer) {
        self.action = action
        self.deliversSerially = deliversSerially
        fused = nil
    }

    /// For map and filter, which only transform or drop values and pass terminal events through unchanged.
    ///
    /// A chain of them needs no subscriber per operator: the upstream's subscriber already enforces the grammar and
    /// delivers one value at a time, so each operator becomes one closure wrapped around its downstream's value
    /// callback, and one subscriber at the chain's head calls the composed closure. A subscriber at the chain's end
    /// (the one handed to `action`) is fed by that head subscriber's callbacks, hence `deliversSerially`.
    @usableFromInline
    static func fused(_ attach: @escaping Fused) -> Signal {
        Signal(action: { downstream in
            attach({ downstream.send($0) }, { downstream.sendError($0) }, { downstream.sendComplete() })
        }, fused: attach)
    }

    private init(action: @escaping @Sendable (Subscriber<Value, Failure>) -> Disposer, fused: @escaping Fused) {
        self.action = action
        deliversSerially = true
        self.fused = fused
    }

    /// Subscribes with raw callbacks, through one subscriber for a whole map/filter chain (see ``fused(_:)``).
    @usableFromInline
    func attach(value: @escaping @Sendable (Value) -> Void,
                error: @escaping @Sendable (Failure) -> Void,
                complete: @escaping @Sendable () -> Void) -> Disposer {
        if let fused {
            return fused(value, error, complete)
        }
        return subscribe(Subscriber(value: value, error: error, complete: complete, isFedSerially: deliversSerially))
    }

    /// Runs the action for `subscriber` and hands it the cleanup.
    ///
    /// The returned disposer holds `subscriber` weakly: a subscription lives as long as its producer references the
    /// subscriber (a timer, a request, an upstream signal), as in GYSignal, and never because of a forgotten handle.

    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> Disposer {
        let cleanup = action(subscriber)
        subscriber.attach(cleanup)
        return Disposer(subscription: subscriber)
    }
}
