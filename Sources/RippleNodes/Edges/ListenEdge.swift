import RippleCore

let listenEdgeCounter = LiveObjectCounter("ListenEdge")

/// The edge from a node to one listener. It holds the node (so a listened node stays alive) and is held by the
/// listener owner's `CancelBag`; cancelling it — or freeing the owner — detaches it and releases the node.
///
/// `@unchecked Sendable`: `node` and `cancelled` are only touched under `lock`; `action` is immutable.
public final class ListenEdge<Value: Sendable>: Cancellable, @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var node: Node<Value>?
    @exclusivity(unchecked) private var cancelled = false
    private let action: @Sendable (Value, (any Sendable)?) -> Void

    init(node: Node<Value>, action: @escaping @Sendable (Value, (any Sendable)?) -> Void) {
        self.node = node
        self.action = action
        listenEdgeCounter.increment()
    }

    deinit {
        listenEdgeCounter.decrement()
    }

    /// Calls the listener, unless the edge was cancelled meanwhile.
    @inline(__always)
    func deliver(_ value: Value, context: (any Sendable)?) {
        lock.lock()
        let live = !cancelled
        lock.unlock()
        if live { action(value, context) }
    }

    public func cancel() {
        let detached: Node<Value>? = lock.withLock {
            if cancelled { return nil }
            cancelled = true
            defer { node = nil }
            return node
        }
        guard let detached else { return }
        let id = ObjectIdentifier(self)
        let removed = detached.lock.withLock { () -> [ListenEdge<Value>] in
            let mine = detached.listeners.filter { ObjectIdentifier($0) == id }
            detached.listeners.removeAll { ObjectIdentifier($0) == id }
            return mine
        }
        withExtendedLifetime(removed) {}
    }

    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
