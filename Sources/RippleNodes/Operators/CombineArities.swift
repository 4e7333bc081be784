// The common arities of `combine` (two to ten inputs) and `mapEach` (two to five), spelled out so they are
// `@inlinable` and run specialised in the client: the pack-generic versions run generic (a tuple metadata look-up
// and a value-witness call per element per update; making the pack version `@inlinable` did not get it specialised
// on Swift 6.3: KairoTriangle's ten-input combine 19,270 → 19,238 instructions). Overload resolution prefers these
// to the pack-generic ones; the behaviour is the same.

extension Node where Value == Void {
    /// ``combine(_:)-type.method`` of two nodes.
    @inlinable
    public static func combine<A: Sendable, B: Sendable>(_ a: Node<A>, _ b: Node<B>) -> Node<(A, B)> {
        var builder = CombineBuilder<(A, B)>(count: 2)
        builder.link(a)
        builder.link(b)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of three nodes.
    @inlinable
    public static func combine<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>
    ) -> Node<(A, B, C)> {
        var builder = CombineBuilder<(A, B, C)>(count: 3)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of four nodes.
    @inlinable
    public static func combine<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>, _ d: Node<D>
    ) -> Node<(A, B, C, D)> {
        var builder = CombineBuilder<(A, B, C, D)>(count: 4)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of five nodes.
    @inlinable
    public static func combine<A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable>(
        _ a: Node<A>, _ b: Node<B>, _ c: Node<C>, _ d: Node<D>, _ e: Node<E>
    ) -> Node<(A, B, C, D, E)> {
        var builder = CombineBuilder<(A, B, C, D, E)>(count: 5)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of six nodes.
    @inlinable
    public static func combine<
        A: Sendable,
        B: Sendable,
        C: Sendable,
        D: Sendable,
        E: Sendable,
        F: Sendable
    >(
        _ a: Node<A>,
        _ b: Node<B>,
        _ c: Node<C>,
        _ d: Node<D>,
        _ e: Node<E>,
        _ f: Node<F>
    ) -> Node<(A, B, C, D, E, F)> {
        var builder = CombineBuilder<(A, B, C, D, E, F)>(count: 6)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        builder.link(f)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of seven nodes.
    @inlinable
    public static func combine<
        A: Sendable,
        B: Sendable,
        C: Sendable,
        D: Sendable,
        E: Sendable,
        F: Sendable,
        G: Sendable
    >(
        _ a: Node<A>,
        _ b: Node<B>,
        _ c: Node<C>,
        _ d: Node<D>,
        _ e: Node<E>,
        _ f: Node<F>,
        _ g: Node<G>
    ) -> Node<(A, B, C, D, E, F, G)> {
        var builder = CombineBuilder<(A, B, C, D, E, F, G)>(count: 7)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        builder.link(f)
        builder.link(g)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of eight nodes.
    @inlinable
    public static func combine<
        A: Sendable,
        B: Sendable,
        C: Sendable,
        D: Sendable,
        E: Sendable,
        F: Sendable,
        G: Sendable,
        H: Sendable
    >(
        _ a: Node<A>,
        _ b: Node<B>,
        _ c: Node<C>,
        _ d: Node<D>,
        _ e: Node<E>,
        _ f: Node<F>,
        _ g: Node<G>,
        _ h: Node<H>
    ) -> Node<(A, B, C, D, E, F, G, H)> {
        var builder = CombineBuilder<(A, B, C, D, E, F, G, H)>(count: 8)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        builder.link(f)
        builder.link(g)
        builder.link(h)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of nine nodes.
    @inlinable
    public static func combine<
        A: Sendable,
        B: Sendable,
        C: Sendable,
        D: Sendable,
        E: Sendable,
        F: Sendable,
        G: Sendable,
        H: Sendable,
        I: Sendable
    >(
        _ a: Node<A>,
        _ b: Node<B>,
        _ c: Node<C>,
        _ d: Node<D>,
        _ e: Node<E>,
        _ f: Node<F>,
        _ g: Node<G>,
        _ h: Node<H>,
        _ i: Node<I>
    ) -> Node<(A, B, C, D, E, F, G, H, I)> {
        var builder = CombineBuilder<(A, B, C, D, E, F, G, H, I)>(count: 9)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        builder.link(f)
        builder.link(g)
        builder.link(h)
        builder.link(i)
        return builder.output
    }

    /// ``combine(_:)-type.method`` of ten nodes.
    @inlinable
    public static func combine<
        A: Sendable,
        B: Sendable,
        C: Sendable,
        D: Sendable,
        E: Sendable,
        F: Sendable,
        G: Sendable,
        H: Sendable,
        I: Sendable,
        J: Sendable
    >(
        _ a: Node<A>,
        _ b: Node<B>,
        _ c: Node<C>,
        _ d: Node<D>,
        _ e: Node<E>,
        _ f: Node<F>,
        _ g: Node<G>,
        _ h: Node<H>,
        _ i: Node<I>,
        _ j: Node<J>
    ) -> Node<(A, B, C, D, E, F, G, H, I, J)> {
        var builder = CombineBuilder<(A, B, C, D, E, F, G, H, I, J)>(count: 10)
        builder.link(a)
        builder.link(b)
        builder.link(c)
        builder.link(d)
        builder.link(e)
        builder.link(f)
        builder.link(g)
        builder.link(h)
        builder.link(i)
        builder.link(j)
        return builder.output
    }
}

extension Node {
    /// ``mapEach(_:)`` for a tuple of two.
    @inlinable
    public final func mapEach<A: Sendable, B: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable (A, B) -> Output
    ) -> Node<Output> where Value == (A, B) {
        derive("mapEach", MapTransform { transform($0.0, $0.1) })
    }

    /// ``mapEach(_:)`` for a tuple of three.
    @inlinable
    public final func mapEach<A: Sendable, B: Sendable, C: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable (A, B, C) -> Output
    ) -> Node<Output> where Value == (A, B, C) {
        derive("mapEach", MapTransform { transform($0.0, $0.1, $0.2) })
    }

    /// ``mapEach(_:)`` for a tuple of four.
    @inlinable
    public final func mapEach<A: Sendable, B: Sendable, C: Sendable, D: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable (A, B, C, D) -> Output
    ) -> Node<Output> where Value == (A, B, C, D) {
        derive("mapEach", MapTransform { transform($0.0, $0.1, $0.2, $0.3) })
    }

    /// ``mapEach(_:)`` for a tuple of five.
    @inlinable
    public final func mapEach<A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable (A, B, C, D, E) -> Output
    ) -> Node<Output> where Value == (A, B, C, D, E) {
        derive("mapEach", MapTransform { transform($0.0, $0.1, $0.2, $0.3, $0.4) })
    }
}
