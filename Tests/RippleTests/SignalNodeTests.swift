import Ripple
import RippleTesting
import Testing

@Suite("Bridge: signal.node() and signal.signalNode()")
struct SignalNodeTests {
    @Test func nodeHoldsTheLatestValue() {
        let source = ManualSource<Int, Never>()
        let node = source.signal.node()
        #expect(node.isEmpty)
        #expect(!node.isMutable)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        node.listened(by: bag).withBlock(heard.callAsFunction)
        source.send(1)
        source.send(2)
        #expect(node.value == 2)
        #expect(heard.values == [1, 2])
        let doubled = node.map { $0 * 2 }
        source.send(5)
        #expect(doubled.value == 10)
    }

    @Test func synchronousSignalFillsTheNodeAtOnce() {
        let node = Signal<Int, Never>.just(42).node()
        #expect(node.value == 42)
    }

    @Test func mutableNodeFromSignalCanBeSetToo() {
        let source = ManualSource<Int, Never>()
        let node = source.signal.node().mutablify()
        #expect(node.isMutable)
        node.value = 9
        #expect(node.value == 9)
        source.send(3)
        #expect(node.value == 3)
    }

    @Test func completionIsSurfacedAndTheValueKept() {
        let source = ManualSource<String, Never>()
        let fed = source.signal.signalNode()
        let bag = CancelBag()
        let ends = Recorder<String>()
        fed.termination.listened(by: bag).withBlock { ends.record("\($0)") }
        source.send("last")
        #expect(fed.termination.isEmpty)
        source.complete()
        #expect(ends.values == ["completed"])
        #expect(fed.values.value == "last")
        #expect(source.disposalCount == 1)   // the ended subscription released its resources
        source.send("ignored")
        #expect(fed.values.value == "last")
    }

    @Test func errorIsSurfacedNotDropped() {
        let source = ManualSource<Int, TestError>()
        let fed = source.signal.signalNode()
        source.send(1)
        source.fail(.boom)
        #expect(fed.termination.value?.error == .boom)
        #expect(fed.values.value == 1)
    }

    @Test func failingSignalEndingAtOnce() {
        let fed = Signal<Int, TestError>.fail(.boom).signalNode()
        #expect(fed.values.isEmpty)
        #expect(fed.termination.value?.error == .boom)
    }

    @Test func freeingTheNodeDisposesTheSubscription() {
        let source = ManualSource<Int, Never>()
        weak var weakNode: Node<Int>?
        do {
            let node = source.signal.node()
            weakNode = node
            source.send(1)
            #expect(source.isSubscribed)
        }
        #expect(weakNode == nil)
        #expect(source.disposalCount == 1)
        #expect(!source.isSubscribed)
        #expect(source.lastSubscriber == nil)
    }

    @Test func subscriptionLivesExactlyAsLongAsTheNode() {
        let source = ManualSource<Int, Never>()
        let node = source.signal.node()
        // Dropping a derived node or a listener does not end the subscription: only the node's own end does.
        do {
            let derived = node.map { $0 + 1 }
            source.send(1)
            #expect(derived.value == 2)
        }
        source.send(2)
        #expect(node.value == 2)
        #expect(source.disposalCount == 0)
    }

    @Test func nothingLeaks() {
        let source = ManualSource<Int, TestError>()
        expectReleased { tracker in
            let fed = source.signal.signalNode()
            tracker.track(fed.values, "values")
            tracker.track(fed.termination, "termination")
            let downstream = tracker.track(fed.values.map { $0 * 2 }, "downstream")
            source.send(4)
            #expect(downstream.value == 8)
        }
        #expect(source.disposalCount == 1)
        expectReleased { tracker in
            let ended = ManualSource<Int, Never>()
            let node = tracker.track(ended.signal.node(), "node")
            ended.send(1)
            ended.complete()
            #expect(node.value == 1)
            tracker.track(ended, "source")
        }
    }
}
