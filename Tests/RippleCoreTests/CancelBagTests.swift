import Dispatch
import RippleCore
import Testing

@Suite("CancelBag")
struct CancelBagTests {
    @Test func cancelCancelsEveryEntryOnce() {
        let runs = Locked([Int]())
        let bag = CancelBag()
        for index in 0..<5 {
            bag.insert(ClosureCancelToken { runs.withLock { $0.append(index) } })
        }
        bag.cancel()
        bag.cancel()
        #expect(runs.value == [0, 1, 2, 3, 4])
        #expect(bag.isCancelled)
        #expect(bag.count == 0)
    }

    @Test func insertAfterCancelCancelsAtOnce() {
        let bag = CancelBag()
        bag.cancel()
        let late = ClosureCancelToken()
        bag.insert(late)
        #expect(late.isCancelled)
        #expect(bag.count == 0)
    }

    @Test func freeingTheBagCancelsItsEntries() {
        let entry = ClosureCancelToken()
        do {
            let bag = CancelBag()
            bag.insert(entry)
            #expect(!entry.isCancelled)
        }
        #expect(entry.isCancelled)
    }

    @Test func entriesCancelledElsewhereArePruned() {
        let bag = CancelBag()
        let keeper = ClosureCancelToken()
        bag.insert(keeper)
        for _ in 0..<10_000 {
            let shortLived = ClosureCancelToken()
            bag.insert(shortLived)
            shortLived.cancel()
        }
        #expect(bag.count < 40, "a bag of one live entry must not keep 10,000 dead ones")
        bag.cancel()
        #expect(keeper.isCancelled, "pruning must keep live entries")
    }

    @Test func liveEntriesAreNeverPrunedAway() {
        let bag = CancelBag()
        let entries = (0..<1_000).map { _ in ClosureCancelToken() }
        for entry in entries { bag.insert(entry) }
        #expect(bag.count == 1_000)
        bag.cancel()
        #expect(entries.allSatisfy { $0.isCancelled })
    }

    @Test func concurrentInsertsAndCancelLoseNothing() {
        for _ in 0..<50 {
            let bag = CancelBag()
            let runs = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<100 {
                    let entry = ClosureCancelToken { runs.withLock { $0 += 1 } }
                    bag.insert(entry)
                    if index.isMultiple(of: 3) { entry.cancel() }
                    if thread == 3, index == 50 { bag.cancel() }
                }
            }
            bag.cancel()
            #expect(runs.value == 800, "every entry is cancelled exactly once, by itself, the bag, or on insert")
        }
    }

    @Test func bagIsItsOwnListenerOwner() {
        let bag = CancelBag()
        #expect(bag.cancelBag === bag)
    }
}
