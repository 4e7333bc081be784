import Ripple
import RippleTesting
import Testing

/// `node.signal` subscribes a listener, so it inherits RippleNodes' attach rule: a subscription made while another
/// thread sets ends with the node's latest value.
@Suite("Bridge: node.signal subscribed while another thread sets")
struct NodeSignalAttachRaceTests {
    @Test(.tags(.stress)) func aSubscriptionMadeWhileAnotherThreadSetsEndsWithTheLatestValue() {
        let node = MutableNode(0)
        let log = Locked(EventLog<Int>())
        let disposer = Locked<Disposer?>(nil)
        let stale = Locked(0)
        LockstepBarrier.race(rounds: 20_000) {
            node.value = 1
        } second: {
            disposer.withLock { $0 = node.signal.subscribe(into: log.value) }
        } check: {
            if log.value.values.last != node.value { stale.withLock { $0 += 1 } }
            disposer.value?.dispose()
            log.withLock { $0 = EventLog<Int>() }
            node.value = 0
        }
        #expect(stale.value == 0)
    }
}
