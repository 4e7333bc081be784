import RippleCore
import Synchronization

let listenEdgeCounter = LiveObjectCounter("ListenEdge")

/// The edge from a node to one listener. It holds the node (so a listened node stays alive) and is held by the
/// listener owner's `CancelBag`; cancelling it — or freeing the owner — detaches it and releases the node.
///
/// `@unchecked Sendable`: `node` is written once after init, by the one `cancel()` that flips `cancelled`; `live` is
/// only touched under the node's lock (the node it was created for); `action` is immutable.
@_fixed_layout
public final class ListenEdge<Value: Sendable>: CancelToken, @unchecked Sendable {
    /// An atomic flag rather than a lock: only one `cancel()` may win, and nothing else needs guarding.
    private let cancelled = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var node: Node<Value>?
    /// False once cancelled. Guarded by the node's lock, which propagation holds anyway when it takes the listener
    /// list: no lock of its own per call.
    @usableFromInline @exclusivity(unchecked) var live = true
    /// Where the node's ``EdgeList`` holds this edge, for an O(1) cancel; guarded by the node's lock.
    @usableFromInline @exclusivity(unchecked) var listIndex = -1
    @usableFromInline let action: @Sendable (Value, (any Sendable)?) -> Void
    /// While the attaching thread delivers the value it read (see `Node.attachDeliveringCurrent`), propagations on
    /// other threads hand their newer values to it instead of calling `action` themselves: the listener hears them
    /// after, in order, and never ends with the older value. `initialPending` is the lock-free hint propagation
    /// reads per call; `delivering` and `handoff` are guarded by the node's lock.
    @usableFromInline let initialPending = Atomic<Bool>(false)
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
