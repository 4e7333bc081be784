// Invariants under test: a node's `deliver(on:)` and `delay`, and a listener called on a scheduler, hand values on in
// the order they were set, whatever order the scheduler runs its work in. `Scheduling` promises no order between two
// pieces of work (a concurrent queue may run the later first); with each value its own piece of work, a derived node
// ended on an older value than its source's, and a listener heard the values out of order.
import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Nodes on a scheduler that runs work out of order")
struct NodeScheduledOrderTests {
    /// Holds the work it is given and runs it newest first. Delays are ignored: only the order matters here.
    final class NewestFirstScheduler: Scheduling, @unchecked Sendable {
        private let work = Locked<[@Sendable () -> Void]>([])
        var now: Duration { .zero }

        func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
            schedule(after: .zero, action)
        }

        func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
            work.withLock { $0.append(action) }
            return ClosureCancelToken()
        }

        func runNewestFirst() {
            while let next = work.withLock({ $0.popLast() }) { next() }
        }
    }

    @Test(arguments: ["deliver(on:)", "delay"])
    func aNodeOnTheSchedulerEndsWithTheLastValueSet(_ operatorName: String) {
        let scheduler = NewestFirstScheduler()
        let source = MutableNode(0)
        let moved = operatorName == "delay" ? source.delay(.seconds(1), on: scheduler) : source.deliver(on: scheduler)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        moved.listened(by: bag).withBlock { heard.record($0) }
        source.value = 1
        source.value = 2
        source.value = 3
        scheduler.runNewestFirst()
        #expect(heard.values == [0, 1, 2, 3])
        #expect(moved.value == 3)
    }

    @Test func aListenerOnTheSchedulerHearsTheValuesInOrder() {
        let scheduler = NewestFirstScheduler()
        let source = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        source.listened(by: bag).withBlock(on: scheduler) { heard.record($0) }
        source.value = 1
        source.value = 2
        scheduler.runNewestFirst()
        #expect(heard.values == [0, 1, 2])
    }
}
