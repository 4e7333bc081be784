import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// Engine 2: a set is one transaction, settled in rank order; `Node.batch` groups sets; rings stop after one lap.
@Suite("Transactions: glitch-free, batched, rings")
struct TransactionTests {
    @Test func aDiamondEmitsOnceWithTheNewValuesOfBothSides() {
        let bag = CancelBag()
        let a = MutableNode(1)
        let b = a.map { $0 * 2 }
        let c = a.map { $0 + 1 }
        let d = Node.combine(b, c)
        let heard = Recorder<String>()
        d.listened(by: bag).withBlock { heard.record("\($0)") }
        #expect(heard.values == ["(2, 2)"])
        a.value = 10
        #expect(heard.values == ["(2, 2)", "(20, 11)"])
    }

    /// The two sides of the diamond have different lengths, and a chain of combines hangs below it: every node
    /// still settles once, with the new values (the combine reached through the short side waits for the long one).
    @Test func unevenSidesAndChainedCombinesSettleOnce() {
        let bag = CancelBag()
        let a = MutableNode(1)
        let short = a.map { $0 * 2 }
        let long = a.map { $0 + 1 }.map { $0 * 10 }.map { $0 + 5 }
        let joined = Node.combine(short, long).mapEach { $0 + $1 }
        var chained: Node<Int> = joined
        for _ in 0..<3 { chained = Node.combine(Node(1), chained).mapEach { $0 + $1 } }
        let heard = Recorder<Int>()
        let heardJoined = Recorder<Int>()
        chained.listened(by: bag).withBlock { heard.record($0) }
        joined.listened(by: bag).withBlock { heardJoined.record($0) }
        heard.reset()
        heardJoined.reset()
        a.value = 2
        #expect(heardJoined.values == [4 + 35])
        #expect(heard.values == [4 + 35 + 3])
    }

    /// Ten layers of ten nodes, each combining two nodes of the layer before: engine 1 made the sink emit 512
    /// times per update, 511 of them inconsistent, and ran one closure 512 times.
    @Test func aTenByTenGridEmitsOncePerUpdateAndRunsEachClosureOnce() {
        let bag = CancelBag()
        let width = 10
        let runs = Locked([Int](repeating: 0, count: width * width))
        let source = MutableNode(0)
        var layer: [Node<Int>] = (0..<width).map { column in
            source.map { value in
                runs.withLock { $0[column] += 1 }
                return value + column
            }
        }
        for row in 1..<width {
            layer = (0..<width).map { column in
                Node.combine(layer[column], layer[(column + 1) % width]).mapEach { left, right in
                    runs.withLock { $0[row * width + column] += 1 }
                    return left &+ right
                }
            }
        }
        let sink = layer[0]
        let heard = Recorder<Int>()
        sink.listened(by: bag).withBlock { heard.record($0) }
        for update in 1...3 {
            heard.reset()
            runs.withLock { $0 = [Int](repeating: 0, count: width * width) }
            source.value = update
            #expect(heard.values == [expectedGridSink(source: update, width: width)])
            #expect(runs.value.allSatisfy { $0 == 1 })
        }
    }

    @Test func batchSettlesOnceAfterTheBodyAndReturnsItsResult() {
        let bag = CancelBag()
        let width = MutableNode(1)
        let height = MutableNode(1)
        let area = Node.combine(width, height).mapEach { $0 * $1 }
        let heard = Recorder<Int>()
        let widths = Recorder<Int>()
        area.listened(by: bag).withBlock { heard.record($0) }
        width.listened(by: bag).withBlock { widths.record($0) }
        heard.reset()
        widths.reset()
        let result = Node.batch { () -> String in
            width.value = 3
            height.value = 4
            #expect(heard.values.isEmpty)
            #expect(widths.values.isEmpty)
            return "done"
        }
        #expect(result == "done")
        #expect(heard.values == [12])
        #expect(widths.values == [3])
        #expect(area.value == 12)
    }

    @Test func nestedBatchesJoinTheOutermost() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = MutableNode(0)
        let sum = Node.combine(a, b).mapEach { $0 + $1 }
        let heard = Recorder<Int>()
        sum.listened(by: bag).withBlock { heard.record($0) }
        heard.reset()
        Node.batch {
            a.value = 1
            Node.batch { b.value = 2 }
            #expect(heard.values.isEmpty)
            a.value = 5
        }
        #expect(heard.values == [7])
    }

    @Test func aSingleSetInABatchIsHeardOnceAndANodeSetTwiceKeepsItsLastValue() {
        let bag = CancelBag()
        let node = MutableNode(0)
        let doubled = node.map { $0 * 2 }
        let heard = Recorder<Int>()
        let derived = Recorder<Int>()
        node.listened(by: bag).withBlock { heard.record($0) }
        doubled.listened(by: bag).withBlock { derived.record($0) }
        heard.reset()
        derived.reset()
        Node.batch { node.value = 4 }
        #expect(heard.values == [4])
        #expect(derived.values == [8])
        Node.batch {
            node.value = 5
            node.value = 6
        }
        #expect(heard.values == [4, 6])
        #expect(derived.values == [8, 12])
    }

    @Test func aThrowingBatchStillSettlesWhatItSet() throws {
        struct Stop: Error {}
        let bag = CancelBag()
        let node = MutableNode(0)
        let heard = Recorder<Int>()
        node.listened(by: bag).withBlock { heard.record($0) }
        #expect(throws: Stop.self) {
            try Node.batch {
                node.value = 1
                throw Stop()
            }
        }
        #expect(heard.values == [0, 1])
    }

    @Test func aHandMadeRingEnteredAnywhereSettlesAfterOneLapOneValuePerListener() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        let c = MutableNode<Int>()
        let heard = Recorder<String>()
        for (name, node) in [("a", a), ("b", b), ("c", c)] {
            node.listened(by: bag).withBlock { heard.record("\(name)\($0)") }
        }
        b.link(to: a, transform: MapTransformForTests { $0 + 1 })
        c.link(to: b, transform: MapTransformForTests { $0 + 1 })
        a.link(to: c, transform: MapTransformForTests { $0 + 1 })
        b.value = 0
        #expect(heard.values == ["b0", "c1", "a2"])
        #expect(b.value == 0)
        heard.reset()
        Node.batch { c.value = 5 }
        #expect(heard.values == ["c5", "a6", "b7"])
        a.removeUpstreams()
        b.removeUpstreams()
        c.removeUpstreams()
    }

    @Test func syncedNodesHearOneValuePerSetAndKeepTheOrigin() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = MutableNode(0)
        let heardA = Recorder<Int>()
        let heardB = Recorder<Int>()
        let ring = a.sync(with: b)
        a.listened(by: bag).withBlock { heardA.record($0) }
        b.listened(by: bag).withBlock { heardB.record($0) }
        for value in 1...3 {
            a.value = value
            b.value = value * 10
        }
        #expect(heardA.values == [0, 1, 10, 2, 20, 3, 30])
        #expect(heardB.values == [0, 1, 10, 2, 20, 3, 30])
        Node.batch {
            a.value = 7
            b.value = 8
        }
        // Both are origins of the batch: neither is overwritten by the other's echo.
        #expect(a.value == 7 && b.value == 8)
        ring.cancel()
    }

    /// `merge`, `zip` and `combine` fed twice by one transaction: each emits once.
    @Test func eventLikeOperatorsEmitOncePerTransaction() {
        let bag = CancelBag()
        let a = MutableNode(1)
        let b = a.map { $0 * 10 }
        let c = a.map { $0 * 100 }
        let merged = Node.merge(b, c)
        let zipped = Node.zip(b, c)
        let combined = Node.combine(b, c)
        let heardMerged = Recorder<Int>()
        let heardZipped = Recorder<String>()
        let heardCombined = Recorder<String>()
        merged.listened(by: bag).withBlock { heardMerged.record($0) }
        zipped.listened(by: bag).withBlock { heardZipped.record("\($0)") }
        combined.listened(by: bag).withBlock { heardCombined.record("\($0)") }
        a.value = 2
        a.value = 3
        // merge: the value that reached it last in the transaction (c, linked after b).
        #expect(heardMerged.values == [100, 200, 300])
        // zip: still the k-th values paired.
        #expect(heardZipped.values == ["(10, 100)", "(20, 200)", "(30, 300)"])
        #expect(heardCombined.values == ["(10, 100)", "(20, 200)", "(30, 300)"])
    }

    /// What Propagation.md says of `flattenMap` when the outer node and the current inner node change in one
    /// transaction: the result settles with the current inner node's new value, then the switch follows as the
    /// next transaction.
    @Test func flattenSwitchingInTheTransactionThatChangedTheInnerNodeFollowsAsTheNextOne() {
        let bag = CancelBag()
        let x = MutableNode(1)
        let even = x.map { $0 * 10 }
        let odd = x.map { $0 * 100 }
        let result = x.flattenMap { $0 % 2 == 0 ? even : odd }
        let heard = Recorder<Int>()
        result.listened(by: bag).withBlock { heard.record($0) }
        #expect(heard.values == [100])
        x.value = 2
        #expect(heard.values == [100, 200, 20])
        #expect(result.value == 20)
    }

    @Test func anAsynchronousEdgeStartsANewTransactionWhereItDelivers() {
        let bag = CancelBag()
        let scheduler = TestScheduler()
        let a = MutableNode(1)
        let later = a.deliver(on: scheduler)
        let pair = Node.combine(a, later)
        let heard = Recorder<String>()
        pair.listened(by: bag).withBlock { heard.record("\($0)") }
        scheduler.run()
        heard.reset()
        a.value = 2
        #expect(heard.values == ["(2, 1)"])
        scheduler.run()
        #expect(heard.values == ["(2, 1)", "(2, 2)"])
    }

    @Test func aRingThroughAnAsynchronousEdgeStillStopsAfterOneLap() {
        let bag = CancelBag()
        let scheduler = TestScheduler()
        let a = MutableNode(0)
        let b = a.deliver(on: scheduler).map { $0 + 1 }.mutablify()
        let back = a.link(to: b)
        scheduler.run()
        let heard = Recorder<Int>()
        a.listened(by: bag).withBlock { heard.record($0) }
        heard.reset()
        a.value = 5
        scheduler.run()
        #expect(b.value == 6)
        #expect(a.value == 5)
        #expect(heard.values == [5])
        #expect(scheduler.pendingCount == 0)
        back.cancel()
    }

    @Test func aListenerSettingItsOwnNodeRunsAsTheNextTransaction() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = a.map { $0 + 1 }
        let c = a.map { $0 + 2 }
        let d = Node.combine(b, c)
        let heard = Recorder<String>()
        a.listened(by: bag).withBlock { value in
            if value == 1 { a.value = 2 }
        }
        d.listened(by: bag).withBlock { heard.record("\($0)") }
        heard.reset()
        a.value = 1
        #expect(heard.values == ["(2, 3)", "(3, 4)"])
    }

    /// One commit's listener calls run as one batch, outside the lock: a listener cancelled by an earlier call of the
    /// same commit is still skipped, and a set made from a call is heard after the whole batch, in transaction order.
    @Test func aCallCancelledByAnEarlierCallOfTheSameCommitIsSkipped() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let heard = Recorder<String>()
        let second = Locked<(any CancelToken)?>(nil)
        a.listened(by: bag).withBlock { value in
            heard.record("first \(value)")
            if value == 1 { second.value?.cancel() }
        }
        second.withLock { $0 = a.listened(by: bag).withBlock { heard.record("second \($0)") } }
        let b = a.map { $0 * 10 }
        b.listened(by: bag).withBlock { value in
            heard.record("b \(value)")
            if value == 10 { a.value = 2 }
        }
        heard.reset()
        a.value = 1
        #expect(heard.values == ["first 1", "b 10", "first 2", "b 20"])
        #expect(second.value?.isCancelled == true)
    }

    /// A diamond built first, then fed from the end of a deeper chain: linking raises the ranks below it (the
    /// worklist walk), so it still settles once.
    @Test func linkingAnExistingGraphBelowADeeperNodeRaisesItsRanks() {
        let bag = CancelBag()
        let head = MutableNode<Int>()
        let b = head.map { $0 * 2 }
        let c = head.map { $0 + 1 }.map { $0 }
        let d = Node.combine(b, c)
        let heard = Recorder<String>()
        d.listened(by: bag).withBlock { heard.record("\($0)") }
        let deep = MutableNode(0)
        var tail: Node<Int> = deep
        for _ in 0..<5 { tail = tail.map { $0 + 1 } }
        let feed = Node.combine(tail, b).mapEach { $0 + $1 }
        let fed = Recorder<Int>()
        feed.listened(by: bag).withBlock { fed.record($0) }
        let link = head.link(to: tail)
        heard.reset()
        fed.reset()
        deep.value = 10
        #expect(heard.values == ["(30, 16)"])
        #expect(fed.values == [45])
        link.cancel()
    }

    /// Sources linked above the head of a diamond, one above the other (`top.link(to: source)` with a new source each
    /// time): each new source goes below the node it feeds (its rank drops, possibly below zero) instead of raising
    /// everything under it. The diamond still settles once per set, and so it does after the topmost source is itself
    /// fed from a deeper chain, which raises the ranks again.
    @Test func sourcesLinkedAboveADiamondKeepItGlitchFree() {
        let bag = CancelBag()
        let head = MutableNode<Int>()
        let sum = Node.combine(head.map { $0 * 2 }, head.map { $0 + 1 }.map { $0 }).mapEach { $0 + $1 }
        let heard = Recorder<Int>()
        sum.listened(by: bag).withBlock { heard.record($0) }
        var top = head
        var links: [any CancelToken] = []
        for _ in 0..<1_000 {
            let source = MutableNode<Int>()
            links.append(top.link(to: source))
            top = source
        }
        heard.reset()
        top.value = 1
        #expect(heard.values == [4])
        let deep = MutableNode(0)
        var tail: Node<Int> = deep
        for _ in 0..<5 { tail = tail.map { $0 + 1 } }
        links.append(top.link(to: tail))
        #expect(heard.values == [4, 16])
        heard.reset()
        deep.value = 10
        #expect(heard.values == [46])
        for link in links { link.cancel() }
    }

    /// A ring linked first, then fed from a deeper node: the walk must not go round the ring (its closing edge is a
    /// back edge), and one set still gives one lap.
    @Test func feedingARingFromADeeperNodeEndsAndSettlesOneLap() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = MutableNode(0)
        let ring = a.sync(with: b)
        let deep = MutableNode(0)
        var tail: Node<Int> = deep
        for _ in 0..<3 { tail = tail.map { $0 + 1 } }
        let link = a.link(to: tail)
        let heard = Recorder<String>()
        a.listened(by: bag).withBlock { heard.record("a\($0)") }
        b.listened(by: bag).withBlock { heard.record("b\($0)") }
        heard.reset()
        deep.value = 1
        #expect(heard.values == ["a4", "b4"])
        b.value = 9
        #expect(a.value == 9 && b.value == 9)
        link.cancel()
        ring.cancel()
    }

    @Test func customTransformsStillReceiveAndEmit() {
        final class Doubling: Transform<Int, String>, @unchecked Sendable {
            override func next(_ value: Int, senders: SenderList, context: (any Sendable)?) {
                emit("\(value * 2)", senders: senders, context: context)
            }
        }
        let bag = CancelBag()
        let a = MutableNode(1)
        let b = a.map { $0 }
        let text = MutableNode<String>()
        text.link(to: b, transform: Doubling())
        let both = Node.combine(a, text)
        let heard = Recorder<String>()
        both.listened(by: bag).withBlock { heard.record("\($0)") }
        a.value = 4
        #expect(heard.values == ["(1, \"2\")", "(4, \"8\")"])
    }
}

/// The sink of the grid in `aTenByTenGridEmitsOncePerUpdateAndRunsEachClosureOnce`, computed directly.
private func expectedGridSink(source: Int, width: Int) -> Int {
    var layer = (0..<width).map { source + $0 }
    for _ in 1..<width {
        layer = (0..<width).map { layer[$0] &+ layer[($0 + 1) % width] }
    }
    return layer[0]
}
