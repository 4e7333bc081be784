extension Signal {
    /// Forwards each value transformed by `transform`; errors and completion pass through.
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Signal<Output, Failure> {
        // Inlinable so the composed per-value closure is specialised in the caller's module: no generic metadata or
        // value-witness calls per hop.
        let upstream = self
        return .fused { value, error, complete in
            upstream.attach(value: { value(transform($0)) }, error: error, complete: complete)
        }
    }
}
