#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Two threads meeting at a point, round after round: whoever arrives first spins (yielding the core) until the
/// other does. Race tests use it to start two operations as close together as the scheduler allows.
public final class LockstepBarrier: Sendable {
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    public init() {}

    /// Returns once the other thread has called `wait()` for the same round.
    public func wait() {
        let current = generation.load(ordering: .acquiring)
        if arrived.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 2 {
            arrived.store(0, ordering: .relaxed)
            generation.store(current + 1, ordering: .releasing)
            return
        }
        while generation.load(ordering: .acquiring) == current { sched_yield() }
    }
}
