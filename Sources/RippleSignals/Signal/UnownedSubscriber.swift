// Invariants: holds a subscriber without owning it, for operator state that its subscriber's cleanup owns (see
// `CombiningState`): the holder reaches it only while some input's callback that owns it runs. Reaching it costs
// nothing on the per-value paths: no retain or release, unlike a safe or `unowned(unsafe)` reference.

/// A subscriber held without a reference count.
@usableFromInline @frozen
struct UnownedSubscriber<Value: Sendable, Failure: Error> {
    @usableFromInline let reference: Unmanaged<SignalSubscriber<Value, Failure>>

    @inlinable
    init(_ subscriber: borrowing SignalSubscriber<Value, Failure>) {
        reference = .passUnretained(subscriber)
    }

    /// The subscriber, retained: for capturing it in a closure or for cold paths.
    @inlinable
    var subscriber: SignalSubscriber<Value, Failure> {
        reference.takeUnretainedValue()
    }

    /// Calls `body` with the subscriber, without retaining it: the per-value paths. (A retain and a release of an
    /// `unowned(unsafe)` reference cost ~50 instructions per hop; callgrind, CombineLatestPumping 1,049 → 1,420
    /// instructions per value over 7 levels, FlatMapsPumping 442 → 672 over 5, before this was used.)
    @inlinable @inline(__always)
    func with<Result>(_ body: (SignalSubscriber<Value, Failure>) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }
}
