import RippleCore
import RipplePipeline
import RippleSignals

extension Plumber {
    /// Every packet that leaves the last stage, multicast to every subscriber: the plumber's output as a signal.
    ///
    /// ```swift
    /// let links = plumber.outputSignal()
    /// links.subscribe(value: { print("link:", $0.link ?? "-") })
    /// links.map(\.docId).subscribe(value: { print("shared", $0) })
    /// port.receiveShareEvent(["docId": "D1", "userId": "U1"])   // both subscribers hear the packet
    /// ```
    ///
    /// **The output handler.** A plumber has one output handler. `outputSignal()` installs, as that handler, a hub
    /// shared by every output signal of this plumber, and every subscriber of every one of them hears every packet,
    /// in subscription order, on the thread that finished the last stage. So:
    /// - an `onOutput(_:)` handler set *before* is replaced: subscribe to the signal
    ///   instead of using `onOutput` when you want several listeners;
    /// - an `onOutput` handler set *after* replaces the hub: the signals' subscribers stop hearing packets (they are
    ///   not completed) until `outputSignal()` is called again, which installs the same hub back;
    /// - packets that leave while no subscriber is subscribed are not buffered (the signal is hot); they are
    ///   counted in ``RipplePipeline/Plumber/unheardSignalOutputs`` so none is lost without a trace.
    ///
    /// Blocked and failed packets are not outputs: they still go to `onBlocked` / `onFailure`.
    ///
    /// **Lifetime.** The signal never fails or completes. A subscription keeps the plumber alive (its ports keep
    /// emitting into it); disposing it releases the plumber and unsubscribes.
    public func outputSignal() -> Signal<P, Never> {
        let hub = OutputHubs.hub(for: self)
        onOutput { [hub] packet in hub.send(packet) }
        return Signal { [self] subscriber in
            let key = hub.add(subscriber)
            return Disposer { [self] in
                withExtendedLifetime(self) {}
                hub.remove(key)
            }
        }
    }

    /// Packets that left the plumber through ``RipplePipeline/Plumber/outputSignal()``'s hub while no subscriber was
    /// subscribed (0 if the hub was never installed).
    public var unheardSignalOutputs: Int {
        OutputHubs.existingHub(for: self)?.unheard ?? 0
    }
}

/// The output hub of each plumber, found by identity. Weak on both sides: the plumber's output handler and the
/// subscriptions keep a hub alive, never this table.
enum OutputHubs {
    private struct Entry {
        weak var plumber: AnyObject?
        weak var hub: AnyObject?
    }

    private static let table = Locked<[ObjectIdentifier: Entry]>([:])

    static func hub<P: Packet>(for plumber: Plumber<P>) -> OutputHub<P> {
        table.withLock { table in
            let id = ObjectIdentifier(plumber)
            if let entry = table[id], entry.plumber === plumber, let hub = entry.hub as? OutputHub<P> {
                return hub
            }
            // An entry whose plumber was freed may linger until a new hub is made: prune them then.
            table = table.filter { $0.value.plumber != nil && $0.value.hub != nil }
            let hub = OutputHub<P>()
            table[id] = Entry(plumber: plumber, hub: hub)
            return hub
        }
    }

    static func existingHub<P: Packet>(for plumber: Plumber<P>) -> OutputHub<P>? {
        table.withLock { table in
            guard let entry = table[ObjectIdentifier(plumber)], entry.plumber === plumber else { return nil }
            return entry.hub as? OutputHub<P>
        }
    }
}

/// Sends each output packet to every subscriber. `@unchecked Sendable`: `subscribers` and `unheard` are guarded by
/// `lock`; subscribers are called after it is released.
final class OutputHub<P: Packet>: @unchecked Sendable {
    private let lock = Lock()
    typealias Key = KeyedList<SignalSubscriber<P, Never>>.Key

    private var subscribers = KeyedList<SignalSubscriber<P, Never>>()
    private var unheardCount = 0

    func send(_ packet: P) {
        lock.lock()
        let targets = subscribers.elements
        if targets.isEmpty { unheardCount += 1 }
        lock.unlock()
        for subscriber in targets { subscriber.send(packet) }
    }

    func add(_ subscriber: SignalSubscriber<P, Never>) -> Key {
        lock.withLock { subscribers.append(subscriber) }
    }

    func remove(_ key: Key) {
        // Released after the lock.
        let removed = lock.withLock { subscribers.remove(key) }
        withExtendedLifetime(removed) {}
    }

    var unheard: Int {
        lock.withLock { unheardCount }
    }
}
