import Dispatch
import RippleCore
import Testing

@Suite("CancelToken")
struct CancellableTests {
    @Test func closureRunsOnceOnRepeatedCancel() {
        let runs = Locked(0)
        let cancellable = ClosureCancelToken { runs.withLock { $0 += 1 } }
        #expect(!cancellable.isCancelled)
        cancellable.cancel()
        cancellable.cancel()
        #expect(cancellable.isCancelled)
        #expect(runs.value == 1)
    }

    @Test func manyThreadsCancellingAtOnceRunTheActionExactlyOnce() {
        for _ in 0..<200 {
            let runs = Locked(0)
            let cancellable = ClosureCancelToken { runs.withLock { $0 += 1 } }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in cancellable.cancel() }
            #expect(runs.value == 1)
        }
    }

    @Test func storeInBagAndOwner() {
        final class Owner: ListenerOwner { let cancelBag = CancelBag() }
        let bag = CancelBag()
        let first = ClosureCancelToken()
        first.store(in: bag)
        var owner: Owner? = Owner()
        let second = ClosureCancelToken()
        second.cancelled(by: owner!)
        #expect(bag.count == 1)
        bag.cancel()
        #expect(first.isCancelled)
        #expect(!second.isCancelled)
        owner = nil
        #expect(second.isCancelled)
    }
}
