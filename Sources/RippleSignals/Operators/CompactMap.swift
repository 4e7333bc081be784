// Invariants: forwards `transform`'s non-nil results in order and drops the nils; errors and completion pass
// through. Stays fused with the map/filter chain around it (see `Signal.fused(_:)`).

extension Signal {
    /// Forwards the non-nil results of `transform`; errors and completion pass through.
    @inlinable
    public func compactMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Output?
    ) -> Signal<Output, Failure> {
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            if let keep {
                return upstream.attach(value: { input in
                    if let output = transform(input), keep(output) { value(output) }
                }, error: error, complete: complete)
            }
            return upstream.attach(value: { input in
                if let output = transform(input) { value(output) }
            }, error: error, complete: complete)
        }
    }
}
