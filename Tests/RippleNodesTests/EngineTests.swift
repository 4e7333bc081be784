import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Engine: propagation, cycles, re-entrancy, ownership")
struct EngineTests {
    @Test func emptyValuesNeverReachListeners() {
        let bag = CancelBag()
        let received = Recorder<Int?>()
        let node = MutableNode<Int?>()
        node.listened(by: bag).withBlock { received.record($0) }
        let derived = node.map { $0.map { $0 * 2 } }
        derived.listened(by: bag).withBlock { received.record($0) }
        node.value = nil
        node.clean()
        node.set(nil, context: "ignored")
        #expect(received.values.isEmpty)
        node.set(.some(nil), context: nil)
        #expect(received.count == 2)
        node.clean()
        #expect(received.count == 2)
        #expect(derived.value == .some(nil))
    }

    @Test func aListenerCancelledByAnEarlierOneDuringPropagationIsNotCalled() {
        let bag = CancelBag()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let node = MutableNode<Int>()
        let slot = Locked<(any CancelToken)?>(nil)
        node.listened(by: bag).withBlock { value in
            first.record(value)
            if value == 2 { slot.value?.cancel() }
        }
        slot.withLock { $0 = node.listened(by: bag).withBlock { second.record($0) } }
        node.value = 1
        node.value = 2
        node.value = 3
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [1])
    }

    /// Engine 3 calls listeners once their transaction has committed (see <doc:Propagation>): a listener that
    /// unlinks a transform stops the next values, not the one it hears. (Engine 2 ran listeners before the node's
    /// downstream transforms, so the unlink also stopped the value being heard.)
    @Test func aTransformUnlinkedByAListenerGetsNoLaterValue() {
        let bag = CancelBag()
        let node = MutableNode<Int>()
        let downstream = MutableNode<Int>()
        let link = downstream.link(to: node)
        let received = Recorder<Int>()
        downstream.listened(by: bag).withBlock { received.record($0) }
        node.listened(by: bag).withBlock { value in
            if value == 2 { link.cancel() }
        }
        node.value = 1
        node.value = 2
        node.value = 3
        #expect(received.values == [1, 2])
        #expect(downstream.value == 2)
    }

    @Test func listenersRunBeforeDownstreamInRegistrationOrder() {
        let bag = CancelBag()
        let order = Recorder<String>()
        let node = MutableNode<Int>()
        let derived = node.map { $0 }
        derived.listened(by: bag).withBlock { order.record("derived \($0)") }
        node.listened(by: bag).withBlock { order.record("first \($0)") }
        node.listened(by: bag).withBlock { order.record("second \($0)") }
        node.value = 1
        #expect(order.values == ["first 1", "second 1", "derived 1"])
    }

    @Test func contextTravelsUnchangedDownstream() {
        let bag = CancelBag()
        let contexts = Recorder<String>()
        let node = MutableNode(0)
        let chain = node.map { $0 + 1 }.filter { $0 > 0 }.fork()
        chain.listened(by: bag).withContextBlock { value, context in
            contexts.record("\(value) \(context as? String ?? "nil")")
        }
        node.set(5, context: "ctx")
        #expect(contexts.values == ["1 nil", "6 ctx"])
    }

    @Test func freedOwnerStopsCallbacksAndReleasesTheNode() {
        weak var weakNode: MutableNode<Int>?
        let received = Recorder<Int>()
        var setter: MutableNode<Int>?
        do {
            let owner = CancelBag()
            let node = MutableNode(1)
            weakNode = node
            setter = node
            node.listened(by: owner).withBlock { received.record($0) }
            node.value = 2
        }
        setter?.value = 3
        #expect(received.values == [1, 2])
        #expect(setter?.hasListener == false)
        setter = nil
        #expect(weakNode == nil)
    }

    @Test func listenEdgePinsTheNodeUntilTheOwnerGoes() {
        weak var weakNode: Node<Int>?
        var owner: CancelBag? = CancelBag()
        do {
            let node = MutableNode(1).map { $0 + 1 }
            weakNode = node
            node.listened(by: owner!).withBlock { _ in }
        }
        #expect(weakNode != nil)
        owner = nil
        #expect(weakNode == nil)
    }

    @Test func twoNodeRingSettlesAfterOneLapWithoutOverwritingTheOrigin() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        let aValues = Recorder<Int>()
        let bValues = Recorder<Int>()
        a.listened(by: bag).withBlock { aValues.record($0) }
        b.listened(by: bag).withBlock { bValues.record($0) }
        let ring = a.syncWith(b, transform: { $0 + 100 }, revert: { $0 + 1 })
        a.value = 1
        #expect(a.value == 1)
        #expect(b.value == 2)
        b.value = 10
        #expect(a.value == 110)
        #expect(b.value == 10)
        #expect(aValues.values == [1, 110])
        #expect(bValues.values == [2, 10])
        ring.cancel()
    }

    @Test func threeNodeRingSettlesAfterOneLap() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        let c = MutableNode<Int>()
        let deliveries = Recorder<String>()
        for (name, node) in [("a", a), ("b", b), ("c", c)] {
            node.listened(by: bag).withBlock { deliveries.record("\(name)\($0)") }
        }
        b.link(to: a, transform: MapTransformForTests { $0 + 1 })
        c.link(to: b, transform: MapTransformForTests { $0 + 1 })
        a.link(to: c, transform: MapTransformForTests { $0 + 1 })
        a.value = 0
        #expect(deliveries.values == ["a0", "b1", "c2"])
        c.value = 10
        #expect(a.value == 11 && b.value == 12 && c.value == 10)
        a.removeUpstreams()
        b.removeUpstreams()
        c.removeUpstreams()
    }

    @Test func reentrantSetIsQueuedUntilEveryListenerSawTheCurrentValue() {
        let bag = CancelBag()
        let log = Recorder<String>()
        let node = MutableNode(0)
        let derived = node.map { $0 * 10 }
        node.listened(by: bag).withBlock { value in
            log.record("first \(value)")
            if value < 3 { node.value = value + 1 }
        }
        node.listened(by: bag).withBlock { log.record("second \($0)") }
        derived.listened(by: bag).withBlock { log.record("derived \($0)") }
        log.reset()
        node.value = 1
        #expect(log.values == [
            "first 1", "second 1", "derived 10", "first 2", "second 2", "derived 20", "first 3", "second 3",
            "derived 30",
        ])
        #expect(node.value == 3)
    }

    @Test func nestedSetOfAnotherNodeRunsAtOnce() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = MutableNode(0)
        let log = Recorder<String>()
        a.listened(by: bag).withBlock { value in
            log.record("a \(value)")
            b.value = value * 2
            log.record("after b")
        }
        b.listened(by: bag).withBlock { log.record("b \($0)") }
        log.reset()
        a.value = 4
        #expect(log.values == ["a 4", "b 8", "after b"])
    }

    @Test(arguments: ["skip", "take", "scan"])
    func countersResetWhenTheEdgeIsRepointed(_ kind: String) throws {
        let first = MutableNode<Int>()
        let second = MutableNode(100)
        let output: Node<Int>
        switch kind {
        case "skip": output = first.skip(1)
        case "take": output = first.take(1)
        default: output = first.scan(start: 0) { $0 + $1 }
        }
        first.value = 1
        first.value = 2
        let transform = try #require(output.upstreamTransforms.first as? Transform<Int, Int>)
        transform.from = second
        switch kind {
        case "skip":
            #expect(output.value == 2)  // 100 is the first value again: skipped
            second.value = 101
            #expect(output.value == 101)
        case "take":
            #expect(output.value == 100)  // counting starts over: the push of 100 is taken
            second.value = 101
            #expect(output.value == 100)
        default:
            #expect(output.value == 100)  // the fold starts again from `start`
            second.value = 1
            #expect(output.value == 101)
        }
        let before = output.value
        first.value = 50
        #expect(output.value == before)
    }

    @Test func removingOneInputStopsACombine() {
        let a = MutableNode(1)
        let b = MutableNode(2)
        let combined = Node.combine(a, b).mapEach { $0 + $1 }
        #expect(combined.value == 3)
        let pairs = combined.upstreamNodes.first!
        a.removeDownstream(pairs)
        b.value = 10
        a.value = 10
        #expect(combined.value == 3)
    }

    @Test func zipPairsInFIFOOrderPerInput() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<String>()
        let c = MutableNode<Bool>()
        let zipped = Node.zip(a, b, c)
        let received = Recorder<String>()
        zipped.listened(by: bag).withBlock { received.record("\($0.0)\($0.1)\($0.2)") }
        a.value = 1
        a.value = 2
        a.value = 3
        b.value = "x"
        c.value = true
        b.value = "y"
        c.value = false
        #expect(received.values == ["1xtrue", "2yfalse"])
        b.value = "z"
        c.value = true
        #expect(received.values == ["1xtrue", "2yfalse", "3ztrue"])
    }

    @Test func lateCaseStartsWithTheCurrentValueOnlyIfItHasItsKey() {
        let node = MutableNode<String>()
        let nodes = node.switch { $0.hasPrefix("李雷") ? "李雷" : nil }
        node.value = "李雷：你好"
        #expect(nodes.case("李雷").value == "李雷：你好")
        node.value = "旁白"
        // As in EasyReact: 李雷 spoke before, but the current value is another key's, so a new case starts empty.
        let liLei = nodes.case("李雷")
        #expect(liLei.isEmpty)
        let aside = nodes.default
        #expect(aside.value == "旁白")
        let nobody = nodes.case("韩梅梅")
        #expect(nobody.isEmpty)
        node.value = "李雷：再见"
        #expect(liLei.value == "李雷：再见")
        #expect(aside.value == "旁白")
    }

    @Test func flattenSwitchesAndEmpties() {
        let bag = CancelBag()
        let a = MutableNode(1)
        let empty = MutableNode<Int>()
        let high = MutableNode<Node<Int>>()
        let flat = high.flatten()
        let received = Recorder<Int>()
        flat.listened(by: bag).withBlock { received.record($0) }
        #expect(flat.isEmpty)
        high.value = a
        #expect(flat.value == 1)
        high.value = empty
        #expect(flat.isEmpty)
        a.value = 2
        #expect(flat.isEmpty)
        empty.value = 5
        #expect(flat.value == 5)
        high.value = a
        #expect(flat.value == 2)
        #expect(received.values == [1, 5, 2])
    }

    @Test func concurrentSetsFromTwoThreadsBothDeliver() async {
        let bag = CancelBag()
        let node = MutableNode(0)
        let count = Locked(0)
        node.listened(by: bag).withBlock { _ in count.withLock { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 0..<100 { node.value = value + index }
        }
        #expect(count.value == 201)
    }
}

/// A custom transform written the way a user would, outside the module.
final class MapTransformForTests: Transform<Int, Int>, @unchecked Sendable {
    let body: @Sendable (Int) -> Int

    init(_ body: @escaping @Sendable (Int) -> Int) {
        self.body = body
    }

    override func next(_ value: Int, senders: SenderList, context: (any Sendable)?) {
        emit(body(value), senders: senders, context: context)
    }
}

@Suite("Engine: feedback into a node that is still propagating")
struct FeedbackTests {
    @Test func feedbackThroughAnotherNodeWaitsForTheCurrentValue() {
        let bag = CancelBag()
        let log = Recorder<String>()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        a.link(to: b, transform: MapTransformForTests { $0 + 100 })
        a.listened(by: bag).withBlock { value in
            log.record("first \(value)")
            if value < 100 { b.value = value * 5 }
        }
        a.listened(by: bag).withBlock { log.record("second \($0)") }
        a.value = 1
        #expect(log.values == ["first 1", "second 1", "first 105", "second 105"])
        #expect(a.value == 105 && b.value == 5)
        a.removeUpstreams()
    }
}

