extension Signal {
    /// Forwards only the values for which `isIncluded` returns true; errors and completion pass through.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        // Hands its predicate upstream instead of wrapping `value` (see `fused(_:)`): the operator above tests its
        // values with it, then with the predicates of the filters below (`keep`), in chain order. Inlinable so the
        // composed closures are specialised in the caller's module.
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            if let keep {
                return upstream.attach(value: value, keep: { isIncluded($0) && keep($0) }, error: error,
                                       complete: complete)
            }
            return upstream.attach(value: value, keep: isIncluded, error: error, complete: complete)
        }
    }
}
