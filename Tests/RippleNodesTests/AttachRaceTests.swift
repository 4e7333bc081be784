import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// Engine 1 read a new listener's first value before attaching it and delivered it after, unordered against a
/// concurrent set: 127–7,409 of 40,000 listeners ended hearing `[0]` or `[1, 0]` while the node held 1.
@Suite("Attach while another thread sets")
struct AttachRaceTests {
    @Test(.tags(.stress)) func aListenerAttachedWhileAnotherThreadSetsEndsWithTheLatestValue() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Locked([Int]())
        let token = Locked<(any CancelToken)?>(nil)
        let stale = Locked(0)
        let examples = Locked([[Int]]())
        LockstepBarrier.race(rounds: 20_000) {
            node.value = 1
        } second: {
            token.withLock { $0 = node.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } } }
        } check: {
            if heard.value.last != node.value {
                stale.withLock { $0 += 1 }
                examples.withLock { if $0.count < 5 { $0.append(heard.value) } }
            }
            token.value?.cancel()
            heard.withLock { $0 = [] }
            node.value = 0
        }
        #expect(stale.value == 0, "stale listeners heard, e.g., \(examples.value)")
    }
}
