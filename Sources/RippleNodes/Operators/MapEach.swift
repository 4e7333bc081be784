extension Node {
    /// `map` for a tuple-valued node (from `combine`/`zip`), spreading the tuple into the closure's parameters.
    public final func mapEach<each Element: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable (repeat each Element) -> Output
    ) -> Node<Output> where Value == (repeat each Element) {
        derive("mapEach", MapTransform { tuple in transform(repeat each tuple) })
    }
}
