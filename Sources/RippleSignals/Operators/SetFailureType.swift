// Invariants: values and completion pass through unchanged; the result can never fail (its source cannot). A `just`
// stays a `just` and a map/filter chain stays fused, so widening a failure type costs nothing per value. The error
// callback it is attached with is never called but kept alive with the others: multi-input operators let an input's
// error callback own their downstream (see `CombiningState`), so a fused operator never drops a callback.

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
            let upstream = asUpstream
            return .fused(depth: depthAbove) { value, keep, error, complete in
                upstream.attach(value: value, keep: keep, error: ignoring(keepingAlive: error), complete: complete)
            }
        }
    }
}

/// A callback that ignores its argument but keeps `callback` alive as long as it lives. Generic so that it can be
/// made for `Never` without the compiler flagging its body as unreachable.
@inlinable
func ignoring<Ignored, Kept: Sendable>(keepingAlive callback: Kept) -> @Sendable (Ignored) -> Void {
    { _ in withExtendedLifetime(callback) {} }
}
