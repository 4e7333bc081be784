import RippleCore

/// Drops the first `count` values, the initial push included; re-pointing `from` starts counting again.
///
/// `@unchecked Sendable`: `seen` is only touched under `edgeLock`.
final class SkipTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let count: Int
    private var seen = 0

    init(_ count: Int) {
        self.count = count
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let pass = edgeLock.withLock { () -> Bool in
            if seen >= count { return true }
            seen += 1
            return false
        }
        if pass { emit(value, senders: senders, context: context) }
    }

    override func fromDidChange() {
        edgeLock.withLock { seen = 0 }
    }
}

extension Node {
    /// A node that ignores this node's first `count` values (the current value counts as the first).
    public final func skip(_ count: Int) -> Node<Value> {
        requireNonNegative(count, "Node.skip(_:)")
        return derive("skip", SkipTransform(count))
    }
}
