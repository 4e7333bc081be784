import Foundation
import Ripple
import RippleTesting
import Testing

/// `node.signal` subscribes a listener, so it inherits RippleNodes' attach rule: a subscription made while another
/// thread sets ends with the node's latest value.
@Suite("Bridge: node.signal subscribed while another thread sets")
struct NodeSignalAttachRaceTests {
    @Test(.tags(.stress)) func aSubscriptionMadeWhileAnotherThreadSetsEndsWithTheLatestValue() {
        let rounds = 20_000
        let node = MutableNode(0)
        let barrier = LockstepBarrier()
        let stale = Locked(0)
        let finished = DispatchSemaphore(value: 0)
        let setter = Thread {
            for _ in 0..<rounds {
                barrier.wait()
                node.value = 1
                barrier.wait()
            }
            finished.signal()
        }
        let subscriber = Thread {
            for _ in 0..<rounds {
                let log = EventLog<Int>()
                barrier.wait()
                let disposer = node.signal.subscribe(into: log)
                barrier.wait()
                if log.values.last != node.value { stale.withLock { $0 += 1 } }
                disposer.dispose()
                node.value = 0
            }
            finished.signal()
        }
        setter.start()
        subscriber.start()
        finished.wait()
        finished.wait()
        #expect(stale.value == 0)
    }
}
