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
