// Invariants: values and completion pass through unchanged; the result can never fail (its source cannot). A `just`
// stays a `just` and a map/filter chain stays fused, so widening a failure type costs nothing per value.

extension Signal where Failure == Never {
    /// The same signal, typed as one that may fail with `NewFailure` (it never does), so that it combines with
    /// signals that can fail: `merge`, `zip`, `combineLatest`, `then`, `flatMap`'s inner signals.
    ///
    /// `flatMap` and `flatMapLatest` insert it themselves where Combine would (a source or inner signal that cannot
    /// fail beside one that can).
    @inlinable
    public func setFailureType<NewFailure: Error>(to _: NewFailure.Type) -> Signal<Value, NewFailure> {
        switch body {
        case .just(let value):
            return .just(value)
        case .action, .fused:
            let upstream = self
            return .fused { value, keep, _, complete in
                upstream.attach(value: value, keep: keep, error: { _ in }, complete: complete)
            }
        }
    }
}
