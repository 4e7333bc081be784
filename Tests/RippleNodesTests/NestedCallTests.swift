import Foundation
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// A listener that sets a node of another graph runs that graph's transaction at once; its listener calls run inside
/// the first call up to 32 graphs deep, and past that once the calls of the batch that set them have run, so a chain
/// of any length of graphs setting one another runs on a small stack (see `NestedCalls.swift`).
@Suite("Listener calls nested through other graphs")
struct NestedCallTests {
    /// 100,000 graphs, each node's listener setting the next graph's node, set from a 512 KiB thread: every node ends
    /// at the value, every listener heard it once. Overflowed the stack at ~2,000 graphs before calls were deferred.
    @Test func aHundredThousandGraphsSettingOneAnotherOnA512KiBStack() async {
        await #expect(processExitsWith: .success) { Self.setAChainOfGraphsOnA512KiBThread(listenersPerNode: 1) }
    }

    /// The same with three listeners a node: their call is the call of several listeners.
    @Test func aHundredThousandGraphsWithSeveralListenersOnA512KiBStack() async {
        await #expect(processExitsWith: .success) { Self.setAChainOfGraphsOnA512KiBThread(listenersPerNode: 3) }
    }

    private static func setAChainOfGraphsOnA512KiBThread(listenersPerNode: Int) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let depth = 100_000
            let nodes = (0...depth).map { _ in MutableNode(0) }
            let bag = CancelBag()
            let calls = Locked(0)
            for index in 0..<depth {
                let next = nodes[index + 1]
                nodes[index].listened(by: bag).withBlock { value in
                    calls.withLock { $0 += 1 }
                    next.value = value + 1
                }
                for _ in 1..<listenersPerNode {
                    nodes[index].listened(by: bag).withBlock { _ in calls.withLock { $0 += 1 } }
                }
            }
            // Each listener heard its node's value when attached; count from the set on.
            calls.withLock { $0 = 0 }
            nodes[0].value = 1
            guard nodes[depth].value == depth + 1 else { exit(2) }
            guard calls.value == depth * listenersPerNode else { exit(3) }
            guard nodes.allSatisfy({ $0.queuedListReaders == 0 }) else { exit(4) }
            bag.cancel()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
    }

    /// The order a listener sees: graph `k`'s calls run inside graph `k − 1`'s call while fewer than 32 drains are on
    /// the stack; graph 32's, set from the 32nd nested call, runs once that call (its graph's batch) returns, and so
    /// on down the chain.
    @Test func pastThirtyTwoNestedCallsAGraphsCallsRunAfterTheCallThatSetThem() {
        let depth = 40
        let nodes = (0...depth).map { _ in MutableNode(0) }
        let bag = CancelBag()
        let heard = Recorder<String>()
        for index in 0..<depth {
            let next = nodes[index + 1]
            nodes[index].listened(by: bag).withBlock { value in
                heard.record("enter \(index)")
                next.value = value
                heard.record("exit \(index)")
            }
        }
        heard.reset()
        nodes[0].value = 1
        let nested = (0..<32).map { "enter \($0)" } + ["exit 31"]
        let deferred = (32..<depth).flatMap { ["enter \($0)", "exit \($0)"] }
        let unwound = (0..<31).reversed().map { "exit \($0)" }
        #expect(heard.values == nested + deferred + unwound)
        #expect(nodes[depth].value == 1)
    }

    /// One thread sets the head of a 40-graph chain while another sets a graph past the 32nd: the deferred graphs'
    /// queues stay in order, every listener rests on its node's value, and no list is left counted in.
    @Test func anotherThreadSettingADeferredGraphKeepsItsOrder() {
        for _ in 0..<200 {
            let depth = 40
            let nodes = (0...depth).map { _ in MutableNode(0) }
            let bag = CancelBag()
            let lastHeard = Locked<[Int]>(Array(repeating: 0, count: depth + 1))
            for index in 0...depth {
                let next = index < depth ? nodes[index + 1] : nil
                nodes[index].listened(by: bag).withBlock { value in
                    lastHeard.withLock { $0[index] = value }
                    next?.value = value
                }
                // A second listener, so the node's call is the call of several listeners.
                nodes[index].listened(by: bag).withBlock { _ in }
            }
            onThreads(2) { thread in
                if thread == 0 {
                    for value in 1...30 { nodes[0].value = value }
                } else {
                    for value in 1...30 { nodes[35].value = -value }
                }
            }
            let values = nodes.map { $0.value ?? 0 }
            #expect(lastHeard.value == values)
            #expect(values[36...].allSatisfy { $0 == values[35] })
            #expect(nodes.allSatisfy { $0.queuedListReaders == 0 })
        }
    }

    /// A deferred graph's listener links its node into another graph and sets that graph: the merged graph's calls
    /// wait behind the deferred drain's batch (its queue is busy), then run once, in order, from the same loop.
    @Test func aDeferredCallThatMergesAndSetsAnotherGraphIsHeardOnce() {
        let depth = 40
        let nodes = (0...depth).map { _ in MutableNode(0) }
        let other = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let link = Locked<(any CancelToken)?>(nil)
        for index in 0..<depth {
            let next = nodes[index + 1]
            nodes[index].listened(by: bag).withBlock { value in
                if index == 36 && value > 0 {
                    link.withLock { $0 = $0 ?? other.link(to: nodes[index]) }
                    other.value = value * 1_000
                }
                next.value = value
            }
        }
        other.listened(by: bag).withBlock { heard.record("other \($0)") }
        nodes[depth].listened(by: bag).withBlock { heard.record("last \($0)") }
        heard.reset()
        nodes[0].value = 1
        #expect(heard.values == ["other 1", "other 1000", "last 1"])
        heard.reset()
        nodes[0].value = 2
        #expect(heard.values == ["other 2", "other 2000", "last 2"])
        #expect(other.value == 2_000)
        #expect(nodes.allSatisfy { $0.queuedListReaders == 0 } && other.queuedListReaders == 0)
        withExtendedLifetime(link) {}
    }
}
