extension Node {
    /// Creates the read-only node an operator returns, linked to `self` through `transform`; both are named after
    /// the operator. Linking pushes the current value, so the new node starts with the operator applied to it.
    // Inlinable, so the node is created specialised in the client: unspecialised, naming `MutableNode<Output>` and
    // passing an empty `Output?` look up generic metadata (~650 instructions per operator).
    @inlinable
    final func derive<Output: Sendable>(_ name: String, _ transform: Transform<Value, Output>) -> Node<Output> {
        let node = MutableNode<Output>(storage: nil, mutable: false)
        attachDerived(node, name: name, through: transform, copyingCurrent: { $0.copyCurrentValue(to: $1) })
        return node
    }

    /// The rest of ``derive(_:_:)``, not inlined.
    @usableFromInline
    final func attachDerived<Output: Sendable>(_ node: Node<Output>, name: String,
                                               through transform: Transform<Value, Output>,
                                               copyingCurrent copy: CurrentValueCopy<Value>?) {
        node.name = name
        transform.name = name
        node.connect(self, through: transform, copyingCurrent: copy)
    }
}
