import RippleCore
import Synchronization

let listenEdgeCounter = LiveObjectCounter("ListenEdge")

/// The context of a call without one, borrowed by ``ListenEdge/deliver(_:)``.
@usableFromInline let noListenerContext: (any Sendable)? = nil

/// The edge from a node to one listener. It holds the node (so a listened node stays alive) and is held by the
/// listener owner's `CancelBag`; cancelling it — or freeing the owner — detaches it and releases the node.
///
/// `@unchecked Sendable`: `node` is written once after init, by the one `cancel()` that flips `cancelled`; `callState`
/// is atomic; `delivering` and `handoff` are only touched under `handoffLock`; `action` is immutable.
///
/// A queued call needs nothing but the edge: whether it still runs and whether it is handed over are asked of the
/// edge itself, so the call does not hold the node (a node read through a weak reference has a side table, and each
/// retain and release of it takes the runtime's slow path: ~200 instructions a call).
@_fixed_layout
public final class ListenEdge<Value: Sendable>: CancelToken, @unchecked Sendable {
    /// An atomic flag rather than a lock: only one `cancel()` may win, and nothing else needs guarding.
    private let cancelled = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var node: Node<Value>?
    /// What a call must check before calling `action`, in one byte so that the common call (zero: call it) reads one
    /// word (two flags cost FanOut1000 ~4 instructions a listener). ``detachedBit``: cancelled, set by
    /// `Node.detachListener` before the edge leaves the list, so a call queued before the cancel and run after it is
    /// skipped. ``deliveringFirstBit``: while the attaching thread delivers the value it read (see
    /// `Node.attachDeliveringCurrent`), propagations on other threads hand their newer values to it instead of calling
    /// `action` themselves: the listener hears them after, in order, and never ends with the older value. The bit is
    /// the lock-free hint; `delivering` and `handoff` are guarded by `handoffLock`.
    @usableFromInline let callState = Atomic<UInt8>(0)
    @inlinable static var detachedBit: UInt8 { 1 }
    @inlinable static var deliveringFirstBit: UInt8 { 2 }
    /// Where the node's ``EdgeList`` holds this edge, for an O(1) cancel; guarded by the node's lock.
    @usableFromInline @exclusivity(unchecked) var listIndex = -1
    @usableFromInline let action: @Sendable (Value, (any Sendable)?) -> Void
    @usableFromInline let handoffLock = RawLock()
    @usableFromInline @exclusivity(unchecked) var delivering = false
    /// A ``Handoff`` box: a class reference, so the unspecialised deinit frees it with a plain release (a stored
    /// `(Value, (any Sendable)?)?` made it look up the tuple's metadata, ~700 instructions per listener).
    @usableFromInline @exclusivity(unchecked) var handoff: AnyObject?
    /// Whether the listener reads the sender list (`withSenderListAndContextBlock`): only then is it kept for the
    /// call, which runs after the transaction. Set before the edge is attached.
    @usableFromInline @exclusivity(unchecked) var wantsSenders = false

    // Inlinable, so a listener is built specialised in the client (no generic metadata look-ups).
    @inlinable
    init(node: Node<Value>, action: @escaping @Sendable (Value, (any Sendable)?) -> Void) {
        self.node = node
        self.action = action
        Self.didCreate()
    }

    @usableFromInline
    static func didCreate() {
        listenEdgeCounter.increment()
    }

    deinit {
        listenEdgeCounter.decrement()
    }

    public func cancel() {
        // Only the first cancel gets past the exchange, so only it touches `node`.
        if cancelled.exchange(true, ordering: .acquiringAndReleasing) { return }
        guard let detached = node else { return }
        node = nil
        detached.detachListener(self)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// One listener call, run by the thread draining the domain's queue, outside every lock: skipped when the
    /// listener was cancelled since; handed to the thread still delivering its first value, if one is (see
    /// `Node.attachDeliveringCurrent`).
    @inlinable
    final func deliver(_ value: Value, context: (any Sendable)?, senders: SenderSnapshot?) {
        let flags = callState.load(ordering: .acquiring)
        if flags != 0 && (flags & Self.detachedBit != 0 || handOff(value, context: context)) { return }
        if let senders {
            PropagationState.withDeliveringSenders(senders) { action(value, context) }
        } else {
            action(value, context)
        }
    }

    /// ``deliver(_:context:senders:)`` of a value set without a context, to a listener that does not read the sender
    /// list.
    @inlinable
    final func deliver(_ value: Value) {
        let flags = callState.load(ordering: .acquiring)
        if flags != 0 && (flags & Self.detachedBit != 0 || handOff(value, context: nil)) { return }
        // Borrowed: a `nil` literal here was destroyed after the call through the existential's value witnesses
        // (~54 instructions a call).
        action(value, noListenerContext)
    }

    /// Hands `value` to the thread still delivering this edge's first value, if it is; returns false otherwise (the
    /// caller then calls the listener itself).
    @inlinable
    final func handOff(_ value: Value, context: (any Sendable)?) -> Bool {
        let box = Handoff(value, context: context)
        handoffLock.lock()
        let handed = delivering
        // A value handed earlier and not taken yet is replaced; released after unlocking (it may hold a node).
        var replaced: AnyObject? = nil
        if handed { (replaced, handoff) = (handoff, box) }
        handoffLock.unlock()
        extendLifetime(replaced)
        return handed
    }
}

/// A value handed to the thread delivering a new listener's first value (see ``ListenEdge/handoff``).
@usableFromInline @_fixed_layout
final class Handoff<Value> {
    @usableFromInline let value: Value
    @usableFromInline let context: (any Sendable)?

    @inlinable
    init(_ value: Value, context: (any Sendable)?) {
        self.value = value
        self.context = context
    }
}
