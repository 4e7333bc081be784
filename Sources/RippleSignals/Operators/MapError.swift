// Invariants: values and completion pass through unchanged; an error is replaced by `transform`'s result, once.
// Stays fused with the map/filter chain around it (it only wraps the error callback).

extension Signal {
    /// Replaces the error with `transform`'s result; values and completion pass through.
    @inlinable
    public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Signal<Value, NewFailure> {
        if case .just(let value) = body { return .just(value) }
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            upstream.attach(value: value, keep: keep, error: { error(transform($0)) }, complete: complete)
        }
    }
}
