extension Node where Value == Void {
    /// A node receiving every value of every input; it starts with the last non-empty input's value, in argument
    /// order (`EZRMerge`).
    // Inlinable, so the pass-through transforms (and their push thunks) are built specialised in the client.
    @inlinable
    public static func merge<Element: Sendable>(_ nodes: Node<Element>...) -> Node<Element> {
        mergeNodes(nodes)
    }
}

@inlinable
func mergeNodes<Element: Sendable>(_ nodes: [Node<Element>]) -> Node<Element> {
    let output = MutableNode<Element>(storage: nil, mutable: false)
    output.name = "merge"
    for node in nodes {
        linkInput(node, into: output, Transform<Element, Element>(), name: "merge")
    }
    return output
}

extension Node {
    /// `a.merge(b)`: the same as `Node.merge(a, b)`.
    @inlinable
    public final func merge(_ others: Node<Value>...) -> Node<Value> {
        mergeNodes([self] + others)
    }
}
