import RippleCore
import RippleNodes
import RippleTesting
import Synchronization
import Testing

/// Many listeners on one node. Their calls of one transaction are queued as one batch and run after the commit, each
/// edge borrowed from the batch (see `Node.collectDeliveries`): every listener hears every transaction once, in
/// registration order, and what a listener does from its call (cancel others, attach more, set the node it listens
/// to) takes effect in transaction order.
@Suite("Many listeners on one node")
struct ManyListenersTests {
    static let count = 10_000

    @Test func tenThousandListenersEachHearEverySetOnceInRegistrationOrder() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<[Int]>()
        var edges: [WeakReference<AnyObject>] = []
        for index in 0..<Self.count {
            let token = node.listened(by: bag).withBlock { heard.record([index, $0]) }
            if index % 1_000 == 0 { edges.append(WeakReference(token as AnyObject)) }
        }
        #expect(heard.values == (0..<Self.count).map { [$0, 0] })
        for value in 1...3 {
            heard.reset()
            node.value = value
            #expect(heard.values == (0..<Self.count).map { [$0, value] })
        }
        bag.cancel()
        heard.reset()
        node.value = 4
        #expect(heard.values.isEmpty)
        #expect(edges.allSatisfy { $0.object == nil }, "a cancelled listener's edge was kept alive")
    }

    /// Listener 0 cancels every odd listener from its call: the ones after it in this very batch are skipped (a call
    /// queued before a cancel and run after it is not made), and none hears the next set.
    @Test func aListenerCancellingTheOthersFromItsCallSkipsTheirPendingCalls() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<[Int]>()
        let tokens = Locked<[any CancelToken]>([])
        let first = node.listened(by: bag).withBlock { value in
            heard.record([0, value])
            if value == 1 {
                for (index, token) in tokens.value.enumerated() where index % 2 == 1 { token.cancel() }
            }
        }
        for index in 1..<Self.count {
            let token = node.listened(by: bag).withBlock { heard.record([index, $0]) }
            tokens.withLock { $0.append(token) }
        }
        heard.reset()
        node.value = 1
        // `tokens[i]` is listener i + 1: the odd tokens are the even listeners from 2 on.
        let survivors = [0] + (1..<Self.count).filter { $0 % 2 == 1 }
        #expect(heard.values == survivors.map { [$0, 1] })
        heard.reset()
        node.value = 2
        #expect(heard.values == survivors.map { [$0, 2] })
        first.cancel()
        bag.cancel()
    }

    /// A listener that sets the node it listens to, and one that attaches a new listener, from their calls. The set
    /// is a transaction of its own that commits at once, and its listener calls wait for the running batch: every
    /// listener attached before it hears 1, then 2. The new listener, attached after 2 committed, hears 2 once, at
    /// once, as it attaches (not again with the batch of the set, collected before it was attached).
    @Test func setsAndAttachesFromListenerCallsRunInTransactionOrder() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<[Int]>()
        node.listened(by: bag).withBlock { value in
            heard.record([0, value])
            if value == 1 { node.value = 2 }
        }
        node.listened(by: bag).withBlock { value in
            heard.record([1, value])
            if value == 1 { node.listened(by: bag).withBlock { heard.record([-1, $0]) } }
        }
        for index in 2..<Self.count { node.listened(by: bag).withBlock { heard.record([index, $0]) } }
        heard.reset()
        node.value = 1
        let expected = [[0, 1], [1, 1], [-1, 2]] + (2..<Self.count).map { [$0, 1] } + (0..<Self.count).map { [$0, 2] }
        let values = heard.values
        // Compared by count and first difference: a failure printing 30,000 pairs helps nobody.
        #expect(values.count == expected.count)
        let mismatch = zip(values, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(mismatch == nil, "first difference at \(mismatch?.offset ?? -1): \(mismatch.map { "\($0.element)" } ?? "")")
        heard.reset()
        node.value = 3
        #expect(heard.values == [[0, 3], [1, 3]] + (2..<Self.count).map { [$0, 3] } + [[-1, 3]])
        bag.cancel()
    }

    /// One thread sets while another attaches listeners: each listener hears an increasing run of values that ends
    /// with the last one set, whichever transaction it attached during (or while its calls were being run).
    @Test func listenersAttachedWhileAnotherThreadSetsEndWithTheLastValue() {
        for _ in 0..<50 { attachWhileSetting(listeners: 200) }
    }

    private func attachWhileSetting(listeners: Int) {
        let node = MutableNode(0)
        let bag = CancelBag()
        let attached = Atomic<Bool>(false)
        let last = Locked(0)
        let heard = (0..<listeners).map { _ in Locked<[Int]>([]) }
        onThreads(2) { thread in
            if thread == 0 {
                // Sets until every listener is attached, then once more: every attach overlaps sets.
                var value = 0
                while !attached.load(ordering: .acquiring) {
                    value += 1
                    node.value = value
                }
                node.value = value + 1
                last.withLock { $0 = value + 1 }
            } else {
                for index in 0..<listeners {
                    let log = heard[index]
                    node.listened(by: bag).withBlock { value in log.withLock { $0.append(value) } }
                }
                attached.store(true, ordering: .releasing)
            }
        }
        let logs = heard.map(\.value)
        let final = last.value
        #expect(logs.filter { $0.last != final }.count == 0, "a listener did not end with the last value, \(final)")
        #expect(logs.filter { !zip($0, $0.dropFirst()).allSatisfy { $0 < $1 } }.count == 0,
                "a listener heard values out of order or twice")
        bag.cancel()
    }
}
