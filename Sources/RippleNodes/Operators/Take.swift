import RippleCore

/// Passes only the first `count` values, the initial push included; re-pointing `from` starts counting again.
///
/// `@unchecked Sendable`: `taken` is only touched under `edgeLock`.
final class TakeTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let count: Int
    private var taken = 0

    init(_ count: Int) {
        self.count = count
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let pass = edgeLock.withLock { () -> Bool in
            if taken >= count { return false }
            taken += 1
            return true
        }
        if pass { emit(value, senders: senders, context: context) }
    }

    override func fromDidChange() {
        edgeLock.withLock { taken = 0 }
    }
}

extension Node {
    /// A node that follows only this node's first `count` values (the current value counts as the first).
    public final func take(_ count: Int) -> Node<Value> {
        requireNonNegative(count, "Node.take(_:)")
        return derive("take", TakeTransform(count))
    }
}
