import RippleCore

extension Node where Value == Void {
    /// A node receiving every value of every input; it starts with the last non-empty input's value, in argument
    /// order (`EZRMerge`). Stops with a programmer error when given no input.
    // Inlinable, so the pass-through transforms (and their push thunks) are built specialised in the client.
    @inlinable
    public static func merge<Element: Sendable>(_ nodes: Node<Element>...) -> Node<Element> {
        if nodes.isEmpty { mergeOfNothing() }
        return mergeNodes(nodes)
    }
}

/// A merge of nothing could never hold a value: almost certainly a mistake, so it stops rather than hand back a
/// node that stays empty for good.
@usableFromInline
func mergeOfNothing() -> Never {
    programmerError("Node.merge() needs at least one input node, got 0")
}

@inlinable
func mergeNodes<Element: Sendable>(_ nodes: [Node<Element>]) -> Node<Element> {
    let output = MutableNode<Element>(storage: nil, mutable: false)
    output.name = "merge"
    for node in nodes {
        linkInput(node, into: output, Transform<Element, Element>(), name: "merge",
                  copyingCurrent: { $0.copyCurrentValue(to: $1) })
    }
    return output
}

extension Node {
    /// `a.merge(b)`: the same as `Node.merge(a, b)`.
    // Disfavoured: `Node.merge(a)` also names this method unapplied (`Node<Int>.merge(a)` is a function taking the
    // others), which made a merge of one node ambiguous without a type annotation; the static merge wins now.
    @inlinable @_disfavoredOverload
    public final func merge(_ others: Node<Value>...) -> Node<Value> {
        mergeNodes([self] + others)
    }
}
