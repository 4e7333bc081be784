extension Node {
    /// Creates the read-only node an operator returns, linked to `self` through `transform`; both are named after
    /// the operator. Linking pushes the current value, so the new node starts with the operator applied to it.
    @usableFromInline
    final func derive<Output: Sendable>(_ name: String, _ transform: Transform<Value, Output>) -> Node<Output> {
        let node = MutableNode<Output>(storage: nil, mutable: false)
        node.name = name
        transform.name = name
        node.connect(self, through: transform)
        return node
    }
}
