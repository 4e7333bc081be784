import RippleCore
import Synchronization

let listenEdgeCounter = LiveObjectCounter("ListenEdge")

/// The edge from a node to one listener. It holds the node (so a listened node stays alive) and is held by the
/// listener owner's `CancelBag`; cancelling it — or freeing the owner — detaches it and releases the node.
///
/// `@unchecked Sendable`: `node` is written once after init, by the one `cancel()` that flips `cancelled`; `live` is
/// only touched under the node's lock (the node it was created for); `action` is immutable.
public final class ListenEdge<Value: Sendable>: CancelToken, @unchecked Sendable {
    /// An atomic flag rather than a lock: only one `cancel()` may win, and nothing else needs guarding.
    private let cancelled = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var node: Node<Value>?
    /// False once cancelled. Guarded by the node's lock, which propagation holds anyway when it takes the listener
    /// list: no lock of its own per call.
    @usableFromInline @exclusivity(unchecked) var live = true
    @usableFromInline let action: @Sendable (Value, (any Sendable)?) -> Void
    /// While the attaching thread delivers the value it read (see `Node.attachReadingCurrent`), propagations on
    /// other threads hand their newer values to it instead of calling `action` themselves: the listener hears them
    /// after, in order, and never ends with the older value. `initialPending` is the lock-free hint propagation
    /// reads per call; `delivering` and `handoff` are guarded by the node's lock.
    @usableFromInline let initialPending = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline @exclusivity(unchecked) var handoff: (Value, (any Sendable)?)?

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
        let released = detached.removeListener(self)
        extendLifetime(released)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}
