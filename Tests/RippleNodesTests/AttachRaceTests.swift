import Foundation
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// Engine 1 read a new listener's first value before attaching it and delivered it after, unordered against a
/// concurrent set: 127–7,409 of 40,000 listeners ended hearing `[0]` or `[1, 0]` while the node held 1.
@Suite("Attach while another thread sets")
struct AttachRaceTests {
    @Test(.tags(.stress)) func aListenerAttachedWhileAnotherThreadSetsEndsWithTheLatestValue() {
        let rounds = 20_000
        let node = MutableNode(0)
        let barrier = LockstepBarrier()
        let stale = Locked(0)
        let staleExamples = Locked([[Int]]())
        let finished = DispatchSemaphore(value: 0)
        let setter = Thread {
            for _ in 0..<rounds {
                barrier.wait()
                node.value = 1
                barrier.wait()
            }
            finished.signal()
        }
        let attacher = Thread {
            let bag = CancelBag()
            for _ in 0..<rounds {
                let heard = Locked([Int]())
                barrier.wait()
                let token = node.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
                barrier.wait()
                if heard.value.last != node.value {
                    stale.withLock { $0 += 1 }
                    staleExamples.withLock { if $0.count < 5 { $0.append(heard.value) } }
                }
                token.cancel()
                node.value = 0
            }
            bag.cancel()
            finished.signal()
        }
        setter.start()
        attacher.start()
        finished.wait()
        finished.wait()
        #expect(stale.value == 0, "stale listeners, e.g. \(staleExamples.value)")
    }
}
