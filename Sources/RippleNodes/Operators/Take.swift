import RippleCore

extension Node {
    /// A node that follows only this node's first `count` values (the current value counts as the first);
    /// re-pointing the edge's `from` starts counting again.
    public final func take(_ count: Int) -> Node<Value> {
        requireNonNegative(count, "Node.take(_:)")
        return derive("take", CountGateTransform(count, passesFirst: true))
    }
}
