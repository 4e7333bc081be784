// Invariants: values pass through; an error becomes one last `output` followed by completion, so the result never
// fails. Stays fused with the map/filter chain around it: the filters below test `output` like any other value. The
// error callback it is attached with is kept alive, never dropped (see `setFailureType(to:)`).

extension Signal {
    /// On error, sends `output` and completes instead; values and completion pass through.
    @inlinable
    public func replaceError(with output: Value) -> Signal<Value, Never> {
        if case .just(let value) = body { return .just(value) }
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            upstream.attach(value: value, keep: keep, error: { _ in
                withExtendedLifetime(error) {}
                if keep?(output) ?? true { value(output) }
                complete()
            }, complete: complete)
        }
    }
}
