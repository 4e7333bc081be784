import RippleCore
import Synchronization

/// The registrations of one pipe, by key slot, and the plan its calls run, published so that a call reads it without
/// the graph lock.
///
/// A call counts itself in `readers` for as long as it borrows the published plan. Whoever replaces the plan (under
/// `pipeGraphLock`) releases the old one at once when no call is counted, and otherwise retires it; the last call
/// to leave releases the retired plans. Both sides use sequentially consistent operations: a call increments
/// `readers` before it loads `published`, an editor swaps `published` out before it loads `readers`, so either the
/// editor sees the call or the call sees the new plan.
///
/// `@unchecked Sendable`: `registrations` and `retired` are only touched under `pipeGraphLock`; the rest is atomic.
@usableFromInline
final class PipeCore: @unchecked Sendable {
    /// Guarded by `pipeGraphLock`. A bundle may hold several registrations under one slot.
    @exclusivity(unchecked) var registrations: [Int: ContiguousArray<AnyObject>] = [:]
    /// The synchronous calls borrowing a plan of this pipe right now.
    @usableFromInline let readers = Atomic<Int>(0)
    /// The plan of this pipe's chain (one strong reference), or nil until the next call builds it. Written only
    /// under `pipeGraphLock`.
    @usableFromInline let published = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Whether `retired` is not empty, so the last call to leave knows it has something to release.
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    /// Guarded by `pipeGraphLock`: plans replaced while calls borrowed them.
    @exclusivity(unchecked) private var retired: [CallPlan] = []

    init() {}

    deinit {
        // Nobody else references this core any more, so no call can be reading the plan.
        if let raw = published.load(ordering: .acquiring) {
            Unmanaged<CallPlan>.fromOpaque(raw).release()
        }
    }

    /// Starts borrowing the published plan; nil when the call has to build it (`ActionPipe.publishPlan`). Pair
    /// with ``leave()``.
    @inlinable @inline(__always)
    func enter() -> Unmanaged<CallPlan>? {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        guard let raw = published.load(ordering: .sequentiallyConsistent) else { return nil }
        return Unmanaged.fromOpaque(raw)
    }

    /// Stops borrowing; the last call to leave releases retired plans.
    @inlinable @inline(__always)
    func leave() {
        let before = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).oldValue
        if before == 1 && hasRetired.load(ordering: .sequentiallyConsistent) {
            releaseRetired()
        }
    }

    /// Call with `pipeGraphLock` held, while counted as a reader, when `published` is nil.
    func publish(_ plan: CallPlan) -> Unmanaged<CallPlan> {
        let retained = Unmanaged.passRetained(plan)
        published.store(retained.toOpaque(), ordering: .sequentiallyConsistent)
        return retained
    }

    /// Takes the published plan down after a change to the chain. Call with `pipeGraphLock` held; what lands in
    /// `garbage` is to be released after unlocking.
    func unpublish(into garbage: inout [AnyObject]) {
        guard let raw = published.exchange(nil, ordering: .sequentiallyConsistent) else { return }
        let plan = Unmanaged<CallPlan>.fromOpaque(raw).takeRetainedValue()
        guard readers.load(ordering: .sequentiallyConsistent) != 0 else {
            garbage.append(plan)
            return
        }
        retired.append(plan)
        hasRetired.store(true, ordering: .sequentiallyConsistent)
        // The calls seen above may all have left before the flag was set, without seeing it.
        if readers.load(ordering: .sequentiallyConsistent) == 0 {
            takeRetired(into: &garbage)
        }
    }

    /// Releases the retired plans once no call borrows any of them. Call without `pipeGraphLock` held.
    @usableFromInline
    func releaseRetired() {
        var garbage: [AnyObject] = []
        pipeGraphLock.withLock {
            // A call that entered since then borrows the published plan, never a retired one.
            if readers.load(ordering: .sequentiallyConsistent) == 0 {
                takeRetired(into: &garbage)
            }
        }
        withExtendedLifetime(garbage) {}
    }

    /// Call with `pipeGraphLock` held and no reader counted.
    private func takeRetired(into garbage: inout [AnyObject]) {
        garbage.append(contentsOf: retired as [AnyObject])
        retired = []
        hasRetired.store(false, ordering: .sequentiallyConsistent)
    }
}
