import RippleCore

let listenEdgeCounter = LiveObjectCounter("ListenEdge")

/// The edge from a node to one listener. It holds the node (so a listened node stays alive) and is held by the
/// listener owner's `CancelBag`; cancelling it — or freeing the owner — detaches it and releases the node.
///
/// `@unchecked Sendable`: `node` and `cancelled` are only touched under `lock`; `live` only under the node's lock
/// (the node it was created for); `action` is immutable.
public final class ListenEdge<Value: Sendable>: Cancellable, @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var node: Node<Value>?
    @exclusivity(unchecked) private var cancelled = false
    /// False once cancelled. Guarded by the node's lock, which propagation holds anyway when it takes the listener
    /// list: no lock of its own per call.
    @usableFromInline @exclusivity(unchecked) var live = true
    @usableFromInline let action: @Sendable (Value, (any Sendable)?) -> Void

    init(node: Node<Value>, action: @escaping @Sendable (Value, (any Sendable)?) -> Void) {
        self.node = node
        self.action = action
        listenEdgeCounter.increment()
    }

    deinit {
        listenEdgeCounter.decrement()
    }

    public func cancel() {
        let detached: Node<Value>? = lock.withLock {
            if cancelled { return nil }
            cancelled = true
            defer { node = nil }
            return node
        }
        guard let detached else { return }
        let previous = detached.removeListener(self)
        withExtendedLifetime(previous) {}
    }

    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
