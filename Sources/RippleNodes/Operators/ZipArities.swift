// The common arities of `zip`, spelled out so they are `@inlinable` and run specialised in the client (see
// `CombineArities.swift`). Overload resolution prefers these to the pack-generic one; the behaviour is the same.

extension Node where Value == Void {
    /// ``zip(_:)-type.method`` of two nodes.
    @inlinable
    public static func zip<A: Sendable, B: Sendable>(_ a: Node<A>, _ b: Node<B>) -> Node<(A, B)> {
        var builder = ZipBuilder<(A, B)>(count: 2)
        builder.link(a)
        builder.link(b)
        return builder.output
    }

    /// ``zip(_:)-type.method`` of three nodes.
    @inlinable
    public static func zip<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>
    ) -> Node<(A, B, C)> {
        var builder = ZipBuilder<(A, B, C)>(count: 3)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        return builder.output
    }

    /// ``zip(_:)-type.method`` of four nodes.
    @inlinable
    public static func zip<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>, _ d: Node<D>
    ) -> Node<(A, B, C, D)> {
        var builder = ZipBuilder<(A, B, C, D)>(count: 4)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        return builder.output
    }

    /// ``zip(_:)-type.method`` of five nodes.
    @inlinable
    public static func zip<A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>, _ d: Node<D>, _ e: Node<E>
    ) -> Node<(A, B, C, D, E)> {
        var builder = ZipBuilder<(A, B, C, D, E)>(count: 5)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        return builder.output
    }
}
