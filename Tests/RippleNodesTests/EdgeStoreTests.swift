import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The edge store changes in place outside propagation: appends use spare room, a cancel leaves a tombstone that is
/// squeezed out later. Order, liveness and release must not notice.
@Suite("Edge store: in-place attach and cancel")
struct EdgeStoreTests {
    @Test(arguments: ["attach order", "reverse order", "every third, then the rest"])
    func cancellingInAnyOrderKeepsTheOthersInRegistrationOrder(_ order: String) {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        let tokens = (0..<100).map { index in node.listened(by: bag).withBlock { _ in heard.record(index) } }
        let sequence = removalOrder(order, count: 100)
        var remaining = Set(0..<100)
        for (step, index) in sequence.enumerated() {
            tokens[index].cancel()
            remaining.remove(index)
            if step % 7 == 0 {
                heard.reset()
                node.value = step
                #expect(heard.values == remaining.sorted())
                #expect(node.hasListener == !remaining.isEmpty)
            }
        }
        heard.reset()
        node.value = -1
        #expect(heard.values.isEmpty)
        #expect(!node.hasListener)
    }

    @Test(arguments: ["attach order", "reverse order", "every third, then the rest"])
    func unlinkingDownstreamNodesInAnyOrderKeepsTheOthersLinked(_ order: String) {
        let source = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        var derived: [Node<Int>?] = (0..<60).map { index in source.map { _ in index } }
        for node in derived { node?.listened(by: bag).withBlock { heard.record($0) } }
        // A listener on the source too, attached after the slots: they move up to make room, and must still be
        // found when unlinked.
        source.listened(by: bag).withBlock { _ in heard.record(-1) }
        let sequence = removalOrder(order, count: 60)
        var remaining = Set(0..<60)
        for (step, index) in sequence.enumerated() {
            // The listen edge pins the node: unlink it by hand, as freeing it would.
            derived[index]?.removeUpstreams()
            derived[index] = nil
            remaining.remove(index)
            if step % 7 == 0 {
                heard.reset()
                source.value = step + 1
                #expect(heard.values == [-1] + remaining.sorted())
                #expect(source.downstreamTransforms.count == remaining.count)
            }
        }
        #expect(source.downstreamTransforms.isEmpty)
        bag.cancel()
    }

    @Test func listenersAttachedAndCancelledDuringAPropagationAreHandled() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let late = Locked<(any CancelToken)?>(nil)
        let first = node.listened(by: bag).withBlock { value in
            heard.record("first \(value)")
            if value == 1 {
                late.withLock { $0 = node.listened(by: bag).withBlock { heard.record("late \($0)") } }
            }
        }
        node.listened(by: bag).withBlock { heard.record("second \($0)") }
        heard.reset()
        node.value = 1
        first.cancel()
        node.value = 2
        #expect(heard.values == ["first 1", "late 1", "second 1", "second 2", "late 2"])
        late.value?.cancel()
    }

    /// A set's calls of several listeners read the list after the transaction: the list they read must not change
    /// under them. Here the first listener cancels six of the other nine, enough for a list edited in place to squeeze
    /// its tombstones out while the call is still going through it.
    @Test func aListenerCancellingMostOthersDuringItsCallLeavesTheRestCalledOnce() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        let tokens = Locked<[any CancelToken]>([])
        let first = node.listened(by: bag).withBlock { value in
            heard.record(0)
            if value == 1 { for token in tokens.value[0..<6] { token.cancel() } }
        }
        let others = (1...9).map { index in node.listened(by: bag).withBlock { _ in heard.record(index) } }
        tokens.withLock { $0 = others }
        heard.reset()
        node.value = 1
        #expect(heard.values == [0, 7, 8, 9])
        heard.reset()
        node.value = 2
        #expect(heard.values == [0, 7, 8, 9])
        withExtendedLifetime(first) {}
    }

    /// A call of several listeners that sets a node of another graph, itself with several listeners, whose calls run
    /// (and are counted out as readers of their list) inside the first call; then both lists change from calls.
    /// Every listener that stays hears every set once, in order.
    @Test func listenerCallsThatDrainAnotherGraphsCallsLeaveBothListsConsistent() {
        let a = MutableNode(0)
        let b = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let bTokens = Locked<[any CancelToken]>([])
        let aTokens = Locked<[any CancelToken]>([])
        a.listened(by: bag).withBlock { value in
            heard.record("a0 \(value)")
            b.value = value * 10
        }
        a.listened(by: bag).withBlock { value in
            heard.record("a1 \(value)")
            if value == 1 { for token in aTokens.value { token.cancel() } }
        }
        let aOthers = (2...5).map { index in a.listened(by: bag).withBlock { heard.record("a\(index) \($0)") } }
        aTokens.withLock { $0 = Array(aOthers[0..<3]) }
        b.listened(by: bag).withBlock { value in
            heard.record("b0 \(value)")
            if value == 10 { for token in bTokens.value { token.cancel() } }
        }
        let bOthers = (1...4).map { index in b.listened(by: bag).withBlock { heard.record("b\(index) \($0)") } }
        bTokens.withLock { $0 = Array(bOthers[0..<3]) }
        heard.reset()
        a.value = 1
        #expect(heard.values == ["a0 1", "b0 10", "b4 10", "a1 1", "a5 1"])
        heard.reset()
        a.value = 2
        #expect(heard.values == ["a0 2", "b0 20", "b4 20", "a1 2", "a5 2"])
        // Attached after those sets: in place again, or into a new list; either way heard from then on.
        a.listened(by: bag).withBlock { heard.record("a6 \($0)") }
        b.listened(by: bag).withBlock { heard.record("b5 \($0)") }
        heard.reset()
        a.value = 3
        #expect(heard.values == ["a0 3", "b0 30", "b4 30", "b5 30", "a1 3", "a5 3", "a6 3"])
    }

    /// A listener that asks for the sender list, attached beside others (appended in place, or into a new list),
    /// gets it on the shared call of several listeners.
    @Test(arguments: [false, true])
    func aSenderListListenerAmongSeveralHearsTheSenders(attachedAfterASet: Bool) {
        let source = MutableNode(0)
        let doubled = source.map { $0 * 2 }
        let bag = CancelBag()
        let seen = Recorder<String>()
        doubled.listened(by: bag).withBlock { _ in seen.record("plain") }
        doubled.listened(by: bag).withBlock { _ in seen.record("plain") }
        if attachedAfterASet { source.value = 1 }
        doubled.listened(by: bag).withSenderListAndContextBlock { value, senders, context in
            seen.record("\(value) \(senders.contains(source)) \(context as? String ?? "-")")
        }
        seen.reset()
        source.set(5, context: "ctx")
        #expect(seen.values == ["plain", "plain", "10 true ctx"])
        seen.reset()
        source.value = 6
        #expect(seen.values == ["plain", "plain", "12 true -"])
    }
}

private func removalOrder(_ order: String, count: Int) -> [Int] {
    switch order {
    case "attach order": Array(0..<count)
    case "reverse order": Array((0..<count).reversed())
    default: Array(stride(from: 0, to: count, by: 3)) + (0..<count).filter { $0 % 3 != 0 }
    }
}
