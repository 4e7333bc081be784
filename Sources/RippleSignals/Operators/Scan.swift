// Invariants: the accumulator starts at `initial` for every subscription (never shared between subscriptions); each
// value updates it and forwards the new result; errors and completion pass through. Stays fused: the accumulator is
// made when the fused chain is subscribed, and the chain's head subscriber calls it one value at a time.

extension Signal {
    /// Forwards the running result of `accumulate`, starting from `initial` (per subscription): for values 1, 2, 3
    /// and `scan(0, +)`, the results 1, 3, 6.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result, _ accumulate: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            let accumulator = ScanAccumulator(initial)
            return upstream.attach(value: { input in
                let next = accumulate(accumulator.current, input)
                accumulator.current = next
                if keep?(next) ?? true { value(next) }
            }, error: error, complete: complete)
        }
    }
}

/// One subscription's running result. `@unchecked Sendable`: only touched from the value callback, which the chain's
/// head subscriber serialises.
@usableFromInline @_fixed_layout
final class ScanAccumulator<Result>: @unchecked Sendable {
    @usableFromInline var current: Result

    @inlinable
    init(_ initial: Result) {
        current = initial
    }
}
