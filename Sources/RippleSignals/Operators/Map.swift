extension Signal {
    /// Forwards each value transformed by `transform`; errors and completion pass through.
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Signal<Output, Failure> {
        // Inlinable so the composed per-value closure is specialised in the caller's module: no generic metadata or
        // value-witness calls per hop. `keep` is the predicate of the filters right below (see `fused(_:)`).
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            if let keep {
                return upstream.attach(value: { input in
                    let output = transform(input)
                    if keep(output) { value(output) }
                }, error: error, complete: complete)
            }
            return upstream.attach(value: { value(transform($0)) }, error: error, complete: complete)
        }
    }
}
