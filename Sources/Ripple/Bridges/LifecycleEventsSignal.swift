import RippleCore
import RippleLifecycle
import RippleSignals

extension LifecycleHost {
    /// The host's lifecycle events as a signal: every event delivered to this host while subscribed, in order.
    ///
    /// ```swift
    /// let disposer = screen.lifecycleEvents
    ///     .filter { $0.phase == .didAppear }
    ///     .subscribe(value: { _ in print("on screen") })
    /// LifecycleActions.dispatch(.didAppear(animated: true), to: screen)   // "on screen"
    /// disposer.dispose()                                                // leaves; no more events
    /// ```
    ///
    /// **How it hooks in.** The first access registers one forwarding action on the host (identifier
    /// `"Ripple.lifecycleEvents"`, through `registerLifecycleAction(_:)`); later
    /// accesses reuse it. It stays registered while the host lives and does nothing while nobody is subscribed.
    /// Events therefore reach subscribers after the host's own implementation, the global actions and the host
    /// actions registered before that first access. Removing that action from the host stops every signal of the
    /// host for good.
    ///
    /// **Isolation.** Reading the property is main-actor work (it registers an action); the signal itself is
    /// thread-agnostic, like every signal: subscribe and dispose from any thread. Joining and leaving are
    /// synchronous, under a lock, so a subscription made before an event hears it and a disposed one hears nothing
    /// more, whatever thread either happens on. Events are sent on the main actor, where hosts receive them.
    ///
    /// **Lifetime.** The signal and its subscriptions do not keep the host alive; the host keeps the forwarding
    /// action. When the host is freed every subscription completes (on the thread that freed the host), and
    /// subscribing afterwards completes at once. The signal never fails.
    public var lifecycleEvents: Signal<LifecycleEvent, Never> {
        let hub: LifecycleEventHub
        if let existing = lifecycleActions.actions.first(where: { $0.identifier == LifecycleEventHub.identifier })
            as? LifecycleEventHub {
            hub = existing
        } else {
            hub = LifecycleEventHub()
            registerLifecycleAction(hub)
        }
        let subscribers = hub.subscribers
        return Signal { [weak subscribers] subscriber in
            guard let subscribers, let key = subscribers.add(subscriber) else {
                subscriber.sendComplete()
                return .empty
            }
            return Disposer { [weak subscribers] in subscribers?.remove(key) }
        }
    }
}

/// The forwarding action `lifecycleEvents` registers once per host: sends every event to the current subscribers.
@MainActor
final class LifecycleEventHub: LifecycleAction {
    static let identifier = "Ripple.lifecycleEvents"

    /// Thread-safe, so signals can join and leave from any thread; owned by this action, so it dies with the host.
    nonisolated let subscribers = LifecycleSubscribers()

    init() {
        super.init(identifier: Self.identifier)
    }

    deinit {
        // Freed with its host: nothing more will happen, so every subscription completes.
        subscribers.close()
    }

    override func hostDidLoad(_ host: any LifecycleHost) {
        subscribers.send(.didLoad)
    }

    override func host(_ host: any LifecycleHost, willAppear animated: Bool) {
        subscribers.send(.willAppear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        subscribers.send(.didAppear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, willDisappear animated: Bool) {
        subscribers.send(.willDisappear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        subscribers.send(.didDisappear(animated: animated))
    }
}

/// The subscribers of one host's lifecycle events. `@unchecked Sendable`: `list` and `closed` are guarded by `lock`;
/// subscribers are called after it is released.
final class LifecycleSubscribers: @unchecked Sendable {
    private let lock = Lock()
    typealias Key = KeyedList<SignalSubscriber<LifecycleEvent, Never>>.Key

    private var list = KeyedList<SignalSubscriber<LifecycleEvent, Never>>()
    private var closed = false

    /// Joins; nil once the host is gone, else the key that removes the subscriber.
    func add(_ subscriber: SignalSubscriber<LifecycleEvent, Never>) -> Key? {
        lock.withLock {
            if closed { return nil }
            return list.append(subscriber)
        }
    }

    func remove(_ key: Key) {
        // Released after the lock.
        let removed = lock.withLock { list.remove(key) }
        withExtendedLifetime(removed) {}
    }

    var count: Int {
        lock.withLock { list.count }
    }

    func send(_ event: LifecycleEvent) {
        let targets = lock.withLock { list.elements }
        for subscriber in targets { subscriber.send(event) }
    }

    func close() {
        let targets = lock.withLock { () -> [SignalSubscriber<LifecycleEvent, Never>] in
            closed = true
            return list.removeAll()
        }
        for subscriber in targets { subscriber.sendComplete() }
    }
}
