// Typed graph queries: the same transforms `upstreamTransforms`/`downstreamTransforms` list as ``GraphEdge``s
// (read-only ends), seen as ``Transform``s of the node's value type, so what a query found can be re-pointed
// (`from = …`, `to = …`) without a cast. A transform whose other end has a different value type is left out.

extension Node {
    /// The transforms into this node whose `from` holds `Input` values, in link order, typed so their ends can be
    /// re-pointed:
    ///
    /// ```swift
    /// let a = MutableNode(1), b = MutableNode(10)
    /// let doubled = a.map { $0 * 2 }
    /// doubled.upstreamTransforms(of: Int.self).first?.from = b   // doubled is now 20
    /// ```
    public final func upstreamTransforms<Input: Sendable>(of input: Input.Type) -> [Transform<Input, Value>] {
        upstreamTransforms.compactMap { $0 as? Transform<Input, Value> }
    }

    /// The transforms out of this node whose `to` holds `Output` values, in link order, typed so their ends can be
    /// re-pointed.
    public final func downstreamTransforms<Output: Sendable>(of output: Output.Type) -> [Transform<Value, Output>] {
        downstreamTransforms.compactMap { $0 as? Transform<Value, Output> }
    }

    /// The transforms linking `node` to this one, typed: ``GraphNode/upstreamTransforms(from:)`` for a node whose
    /// value type is known. (A name of its own: as an overload of `upstreamTransforms(from:)`, the untyped one
    /// would win.)
    public final func transforms<Input: Sendable>(from node: Node<Input>) -> [Transform<Input, Value>] {
        upstreamTransforms(of: Input.self).filter { $0.from === node }
    }

    /// The transforms linking this node to `node`, typed: ``GraphNode/downstreamTransforms(to:)`` for a node whose
    /// value type is known.
    public final func transforms<Output: Sendable>(to node: Node<Output>) -> [Transform<Value, Output>] {
        downstreamTransforms(of: Output.self).filter { $0.to === node }
    }
}
