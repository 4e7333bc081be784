import RippleCore

// Invariants:
// - One upstream subscription (a "connection") serves every current subscriber; the first subscriber connects, the
//   last one to leave disposes it. After the upstream ends (its terminal event reaches every current subscriber),
//   or once it lets go of its subscriber, the next subscriber connects afresh with an empty replay buffer.
// - A subscriber joining a connection first gets the up to `replay` latest values, then every later event; events
//   reach each subscriber in the order the connection accepted them (one thread delivers at a time, as in
//   `CombiningState`), so a replayed value never arrives after a newer one.
// - Ownership: the connection is owned by the upstream subscriber's callbacks, and owns the downstream subscribers;
//   the shared signal and the subscribers' cleanups reach it weakly. So when the upstream producer lets go of its
//   subscriber unended, the connection and every downstream subscriber are freed (issue 19's rule).

extension Signal {
    /// Shares one subscription to this signal among all current subscribers (Combine's `share()`): subscribing
    /// again while connected does not run the source's action again.
    public func share() -> Signal {
        share(replay: 0)
    }

    /// Shares one subscription among all current subscribers, replaying up to `replay` latest values to each new
    /// subscriber of the same connection (Rx's `share(replay:)`, scope "while connected").
    public func share(replay: Int) -> Signal {
        requireNonNegative(replay, "Signal.share(replay:)")
        let hub = ShareHub(source: asUpstream, replay: replay)
        return Signal(depth: depthAbove) { downstream in hub.join(downstream) }
    }
}

/// What a shared signal keeps between subscriptions: the current connection, weakly.
/// `@unchecked Sendable`: `connection` is guarded by `lock`.
final class ShareHub<Value: Sendable, Failure: Error>: @unchecked Sendable {
    let source: Signal<Value, Failure>
    let replay: Int
    let lock = Lock()
    weak var connection: ShareConnection<Value, Failure>?

    init(source: Signal<Value, Failure>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    /// Adds `downstream` to the live connection, or connects a new one; returns its cleanup.
    func join(_ downstream: SignalSubscriber<Value, Failure>) -> Disposer {
        lock.lock()
        if let current = connection, let key = current.add(downstream) {
            lock.unlock()
            current.flush()
            return Disposer { [weak current] in current?.remove(key) }
        }
        let fresh = ShareConnection(hub: self)
        connection = fresh
        let key = fresh.add(downstream)!
        lock.unlock()
        fresh.flush()
        fresh.connect()
        return Disposer { [weak fresh] in fresh?.remove(key) }
    }
}

/// One upstream subscription of a shared signal and the subscribers it serves.
/// `@unchecked Sendable`: the mutable state is guarded by the hub's `lock`.
final class ShareConnection<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private typealias Event = SignalSubscriber<Value, Failure>.Event

    private let hub: ShareHub<Value, Failure>
    private var lock: Lock { hub.lock }
    // Guarded by `lock`.
    typealias Key = KeyedList<SignalSubscriber<Value, Failure>>.Key

    /// In subscription order (see `KeyedList`: a removal does not walk the others).
    private var subscribers = KeyedList<SignalSubscriber<Value, Failure>>()
    private var buffer: [Value] = []
    private var upstream: Disposer?
    private var ended = false
    private var disconnected = false
    /// Each event with the subscribers it goes to, delivered in acceptance order.
    private let deliveries: DeliveryQueue<Value, Failure>

    init(hub: ShareHub<Value, Failure>) {
        self.hub = hub
        deliveries = DeliveryQueue(lock: hub.lock)
    }

    /// Called with `lock` held: adds `subscriber` and queues the replay for it; nil once this connection ended.
    func add(_ subscriber: SignalSubscriber<Value, Failure>) -> Key? {
        guard !ended, !disconnected else { return nil }
        let key = subscribers.append(subscriber)
        for value in buffer { deliveries.append(.value(value), to: [subscriber]) }
        return key
    }

    /// Subscribes upstream; its callbacks own this connection.
    func connect() {
        let subscription = hub.source.subscribe(SignalSubscriber(
            value: { self.accept(.value($0)) },
            error: { self.accept(.error($0)) },
            complete: { self.accept(.complete) }))
        lock.lock()
        if disconnected || ended {
            lock.unlock()
            subscription.dispose()
            return
        }
        upstream = subscription
        lock.unlock()
    }

    private func accept(_ event: Event) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        let targets = subscribers.elements
        switch event {
        case .value(let value):
            if hub.replay > 0 {
                buffer.append(value)
                if buffer.count > hub.replay { buffer.removeFirst() }
            }
        case .error, .complete:
            ended = true
            _ = subscribers.removeAll()
            buffer = []
            if hub.connection === self { hub.connection = nil }
        }
        deliveries.append(event, to: targets)
        lock.unlock()
        flush()
    }

    /// Delivers queued events in order unless another thread already is.
    func flush() {
        deliveries.flush()
    }

    /// Subscriber `key` left; the last one to leave disposes the upstream subscription.
    func remove(_ key: Key) {
        lock.lock()
        let gone = subscribers.remove(key)
        // Released after the lock, like the upstream subscription below: its last release may run user code.
        defer { withExtendedLifetime(gone) {} }
        guard subscribers.isEmpty, !ended, !disconnected else { return lock.unlock() }
        disconnected = true
        buffer = []
        if hub.connection === self { hub.connection = nil }
        let taken = upstream
        upstream = nil
        lock.unlock()
        taken?.dispose()
    }
}
