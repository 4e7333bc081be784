import Dispatch
import RippleCore
import Testing

/// `CancelBag.remove(_:)` against inserts and prunes on other threads: a token given back is never cancelled by the
/// bag, every other one is, and `remove` finds each token it was given exactly once.
@Suite("CancelBag.remove while other threads insert and prune")
struct CancelBagRemoveRaceTests {
    @Test(.tags(.stress)) func removedTokensSurviveTheBagAndTheRestAreCancelled() {
        let bag = CancelBag()
        let threads = 4, perThread = 2_000
        let tokens = (0..<threads).map { _ in (0..<perThread).map { _ in ClosureCancelToken {} } }
        let found = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for (index, token) in tokens[thread].enumerated() {
                bag.insert(token)
                // Every other token goes back; some of its neighbours are cancelled early, so prunes find work.
                if index % 2 == 1 {
                    if bag.remove(token) { found.withLock { $0 += 1 } }
                } else if index % 3 == 0 {
                    token.cancel()
                }
            }
        }
        #expect(found.value == threads * perThread / 2)
        bag.cancel()
        for list in tokens {
            for (index, token) in list.enumerated() {
                #expect(token.isCancelled == (index % 2 == 0))
            }
        }
    }
}
