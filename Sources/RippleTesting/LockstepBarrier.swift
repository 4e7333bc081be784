#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Two threads meeting at a point, round after round: whoever arrives first spins (yielding the core) until the
/// other does. Race tests use it to start two operations as close together as the scheduler allows.
package final class LockstepBarrier: Sendable {
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    package init() {}

    /// Returns once the other thread has called `wait()` for the same round.
    package func wait() {
        let current = generation.load(ordering: .acquiring)
        if arrived.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 2 {
            arrived.store(0, ordering: .relaxed)
            generation.store(current + 1, ordering: .releasing)
            return
        }
        while generation.load(ordering: .acquiring) == current { sched_yield() }
    }
}

extension LockstepBarrier {
    /// Runs `rounds` rounds on two threads in lockstep: in each, `first` and `second` start together (as close as a
    /// barrier gets them), and once both are done `check` runs on the second thread before the next round starts.
    /// Returns when both threads have finished.
    package static func race(rounds: Int, first: @escaping @Sendable () -> Void, second: @escaping @Sendable () -> Void,
                            check: @escaping @Sendable () -> Void) {
        let barrier = LockstepBarrier()
        let finished = DispatchSemaphore(value: 0)
        let one = Thread {
            for _ in 0..<rounds {
                barrier.wait()
                first()
                barrier.wait()
            }
            finished.signal()
        }
        let two = Thread {
            for _ in 0..<rounds {
                barrier.wait()
                second()
                barrier.wait()
                check()
            }
            finished.signal()
        }
        one.start()
        two.start()
        finished.wait()
        finished.wait()
    }
}
