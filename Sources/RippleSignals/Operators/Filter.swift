extension Signal {
    /// Forwards only the values for which `isIncluded` returns true; errors and completion pass through.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        // Inlinable so the composed per-value closure is specialised in the caller's module: no generic metadata or
        // value-witness calls per hop.
        let upstream = self
        return .fused { value, error, complete in
            upstream.attach(value: { if isIncluded($0) { value($0) } }, error: error, complete: complete)
        }
    }
}
