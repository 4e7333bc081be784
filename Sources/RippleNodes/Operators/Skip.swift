import RippleCore

extension Node {
    /// A node that ignores this node's first `count` values (the current value counts as the first); re-pointing the
    /// edge's `from` starts counting again.
    public final func skip(_ count: Int) -> Node<Value> {
        requireNonNegative(count, "Node.skip(_:)")
        return derive("skip", CountGateTransform(count, passesFirst: false))
    }
}
