import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Stress: concurrent sets")
struct StressTests {
    @Test(.tags(.stress)) func eightThreadsSetOneNode() {
        let threads = 8
        let setsPerThread = 10_000
        let total = threads * setsPerThread
        let bag = CancelBag()
        let node = MutableNode(0)
        let direct = Locked(0)
        let second = Locked(0)
        let mapped = Locked(0)
        let combined = Locked(0)
        let doubled = node.map { $0 * 2 }
        let running = node.scan(start: 0) { count, _ in count + 1 }
        let pairs = Node.combine(doubled, MutableNode("k"))
        node.listened(by: bag).withBlock { _ in direct.withLock { $0 += 1 } }
        node.listened(by: bag).withBlock { _ in second.withLock { $0 += 1 } }
        doubled.listened(by: bag).withBlock { _ in mapped.withLock { $0 += 1 } }
        pairs.listened(by: bag).withBlock { _ in combined.withLock { $0 += 1 } }
        // The current value counts once for every listener attached while it was held.
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<setsPerThread {
                node.value = thread * setsPerThread + index
            }
        }
        #expect(direct.value == total + 1)
        #expect(second.value == total + 1)
        #expect(mapped.value == total + 1)
        #expect(combined.value == total + 1)
        #expect(running.value == total + 1)
    }

    @Test(.tags(.stress)) func concurrentListenAndCancelWhileSetting() {
        let node = MutableNode(0)
        let delivered = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let bag = CancelBag()
            for index in 0..<1_000 {
                if thread % 2 == 0 {
                    node.value = index
                } else {
                    let token = node.listened(by: bag).withBlock { _ in delivered.withLock { $0 += 1 } }
                    token.cancel()
                }
            }
        }
        #expect(!node.hasListener)
        #expect(delivered.value >= 4_000)
    }

    /// Downstream nodes are built and freed on some threads while others push through the source: a push must
    /// never reach a node that is being freed (the engine holds `to` without owning it).
    @Test(.tags(.stress)) func derivedNodesFreedWhileTheSourceIsSet() {
        let source = MutableNode(0)
        let delivered = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 {
                if thread % 2 == 0 {
                    source.value = index
                } else {
                    let bag = CancelBag()
                    // Every listener gets the current value at once, whatever the other threads do.
                    source.map { $0 }.filter { _ in true }.listened(by: bag).withBlock { _ in
                        delivered.withLock { $0 += 1 }
                    }
                    bag.cancel()
                }
            }
        }
        #expect(source.downstreamTransforms.isEmpty)
        #expect(delivered.value >= 4 * 500)
    }
}
