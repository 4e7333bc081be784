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
@frozen
public struct Signal<Value: Sendable, Failure: Error>: Sendable {
    /// What subscribing does. One enum rather than an optional field per kind: a `Signal` is then the size of its
    /// largest case plus a tag (17 bytes for an `Int` signal, rather than 41; 18 with `depth`), so it fits in the
    /// three-word inline buffer of an existential and copies cheaply.
    @usableFromInline
    enum Body: Sendable {
        /// `Signal { subscriber in … }`: runs once per subscription.
        case action(@Sendable (SignalSubscriber<Value, Failure>) -> Disposer)
        /// map, filter and the other operators that make no subscriber of their own (see ``fused(_:)``; flatMap
        /// and flatMapLatest, see `FusedState`): subscribes with raw callbacks, which it calls following the grammar
        /// (values one at a time, never concurrently, then at most one terminal event) through the head subscriber
        /// of a map/filter chain, or through a fused state's ordered hand-off.
        case fused(Fused)
        /// `just`: the value is stored in the signal itself rather than captured by a closure, so making a `just`
        /// allocates nothing, and flatMap delivers it inline without subscribing to it. It calls its callbacks
        /// directly on the subscribing thread (one value, then completion): the grammar holds by construction.
        case just(Value)
    }

    @usableFromInline let body: Body
    /// How many operators this recipe stacks on a source, counted 1…64 and round again (see
    /// Recipe.swift): paces the release barriers and the stack checks of fused chains. One byte after the body's
    /// tag: a `Signal` stays within the three-word inline buffer of an existential, and a `just` made per value
    /// stores and copies one byte more (callgrind, FlatMapLatestPumping: a four-byte field cost ~5 instructions per
    /// level per value).
    @usableFromInline let depth: UInt8

    /// Subscribes with raw callbacks: `value` gets this signal's values that pass `keep` (all when nil), `error` and
    /// `complete` its terminal events.
    @usableFromInline typealias Fused = @Sendable (_ value: @escaping @Sendable (Value) -> Void,
                                                   _ keep: (@Sendable (Value) -> Bool)?,
                                                   _ error: @escaping @Sendable (Failure) -> Void,
                                                   _ complete: @escaping @Sendable () -> Void) -> Disposer

    /// Creates a signal whose `action` runs once per subscription.
    ///
    /// The action sends events to the subscriber (now or later, from any thread) and returns the ``Disposer`` that
    /// releases what it set up. That disposer runs exactly once: when the subscription is disposed, right after the
    /// terminal event's callback, or when nothing references the subscriber any more.
    @inlinable
    public init(_ action: @escaping @Sendable (SignalSubscriber<Value, Failure>) -> Disposer) {
        body = .action(action)
        depth = 0
    }

    /// An operator's signal, `depth` operators deep (see Recipe.swift).
    @inlinable
    init(depth: UInt8, _ action: @escaping @Sendable (SignalSubscriber<Value, Failure>) -> Disposer) {
        body = .action(action)
        self.depth = depth
    }

    @inlinable
    init(body: Body, depth: UInt8) {
        self.body = body
        self.depth = depth
    }

    /// The value of a `just`, which flatMap delivers inline; nil for other signals.
    @inlinable
    var justValue: Value? {
        if case .just(let value) = body { value } else { nil }
    }

    /// For map and filter, which only transform or drop values and pass terminal events through unchanged (and for
    /// the operators whose state keeps the grammar itself: see `FusedState`).
    ///
    /// A chain of them needs no subscriber per operator: the upstream's subscriber already enforces the grammar and
    /// delivers one value at a time, so each operator becomes one closure wrapped around its downstream's value
    /// callback, and one subscriber at the chain's head calls the composed closure. Subscribing to the chain with
    /// callbacks adds no subscriber at its end either (see ``subscribe(value:error:complete:)``).
    ///
    /// A filter makes no closure of its own when subscribed: it hands its predicate upstream as `keep`, and the map
    /// above it tests its output with it (or the chain's head, or a `just`). A map-then-filter pair then costs one
    /// closure per subscription, and one call fewer per value.
    @inlinable
    static func fused(depth: UInt8, _ attach: @escaping Fused) -> Signal {
        Signal(body: .fused(attach), depth: depth)
    }

    /// Subscribes with raw callbacks, through one subscriber for a whole map/filter chain (see ``fused(_:)``):
    /// `value` gets the values that pass `keep` (all when nil).
    @inlinable
    func attach(value: @escaping @Sendable (Value) -> Void,
                keep: (@Sendable (Value) -> Bool)? = nil,
                error: @escaping @Sendable (Failure) -> Void,
                complete: @escaping @Sendable () -> Void) -> Disposer {
        switch body {
        case .fused(let fused):
            // A fused chain makes no subscriber per level, so nothing counts its levels: every
            // `fusedCutInterval`-th level of the recipe (consecutive within a fused chain) it is cut by a checkpoint
            // subscriber whose subscription is queued for the root (see `SubscriptionTrampoline`). A test of the
            // recipe's depth byte, not a thread-local lookup (~90 instructions; callgrind, MapFilterCreating).
            if depth % Self.fusedCutInterval == 0 {
                return attachThroughSubscriber(value: value, keep: keep, error: error, complete: complete)
            }
            return fused(value, keep, error, complete)
        case .just(let just):
            if let keep {
                if keep(just) { value(just) }
            } else {
                value(just)
            }
            complete()
            return .ended
        case .action:
            if let keep {
                return subscribe(SignalSubscriber(value: { if keep($0) { value($0) } }, error: error, complete: complete))
            }
            return subscribe(SignalSubscriber(value: value, error: error, complete: complete))
        }
    }

    /// Runs the action for `subscriber` and hands it the cleanup.
    ///
    /// The returned disposer is the subscriber's ``SubscriptionCore`` and does not keep `subscriber` alive: a
    /// subscription lives as long as its producer references the subscriber (a timer, a request, an upstream
    /// signal), as in GYSignal, and never because of a forgotten handle. Inlinable so that operators subscribing in
    /// the caller's module switch over `body` specialised (unspecialised, that looks the enum's metadata up).
    @inlinable
    func subscribe(_ subscriber: SignalSubscriber<Value, Failure>) -> Disposer {
        if subscriber.flags & SubscriberFlags.deferred != 0 {
            return subscribeLater(subscriber)
        }
        return subscribeNow(subscriber)
    }

    /// Queues the subscription of `subscriber` (made with `SubscriberFlags.deferred`) for the root; returns its
    /// disposer. Disposed before the root gets to it, the subscription never starts. Out of line: building the
    /// queued closure in `subscribe(_:)` cost an allocation per subscription (callgrind, SubjectCreating).
    @inlinable @inline(never)
    func subscribeLater(_ subscriber: SignalSubscriber<Value, Failure>) -> Disposer {
        let signal = self
        subscriber.deferSubscription {
            if !subscriber.isDisposed {
                _ = signal.subscribeNow(subscriber)
            }
        }
        return subscriber.core
    }

    /// `subscribe(_:)` without the depth check: runs the action now.
    @inlinable
    func subscribeNow(_ subscriber: SignalSubscriber<Value, Failure>) -> Disposer {
        let cleanup: Disposer
        switch body {
        case .action(let action):
            cleanup = action(subscriber)
        case .fused(let fused):
            cleanup = fused({ subscriber.send($0) }, nil, { subscriber.sendError($0) }, { subscriber.sendComplete() })
        case .just(let just):
            subscriber.send(just)
            subscriber.sendComplete()
            cleanup = .nothing
        }
        subscriber.attach(cleanup)
        return subscriber.core
    }

    /// Subscribes a fused chain's remaining operators through a checkpoint subscriber, whose subscription is queued
    /// for the root unless it is the root (see `SubscriptionTrampoline`): cuts a long fused chain.
    @usableFromInline @inline(never)
    func attachThroughSubscriber(value: @escaping @Sendable (Value) -> Void,
                                 keep: (@Sendable (Value) -> Bool)?,
                                 error: @escaping @Sendable (Failure) -> Void,
                                 complete: @escaping @Sendable () -> Void) -> Disposer {
        let subscriber = keep.map { keep in
            SignalSubscriber<Value, Failure>(value: { if keep($0) { value($0) } }, error: error, complete: complete)
        } ?? SignalSubscriber(value: value, error: error, complete: complete)
        subscriber.flags |= SubscriberFlags.checkpoint
        if subscriber.flags & SubscriberFlags.root == 0 { subscriber.flags |= SubscriberFlags.deferred }
        return subscribe(subscriber)
    }
}
