import Ripple
import RippleTesting
import Testing

@Suite("Bridge: node.signal")
struct NodeSignalTests {
    @Test func currentValueThenEveryChange() {
        let node = MutableNode(1)
        let log = EventLog<Int>()
        let disposer = node.signal.subscribe(into: log)
        node.value = 2
        node.set(3, context: "ctx")
        node.clean()          // emptying sends nothing
        node.value = 4
        #expect(log.values == [1, 2, 3, 4])
        #expect(log.end == nil)   // a node never completes
        disposer.dispose()
    }

    @Test func emptyNodeSendsNothingUntilSet() {
        let node = MutableNode<String>()
        let log = EventLog<String>()
        let disposer = node.signal.subscribe(into: log)
        #expect(log.values.isEmpty)
        node.value = "first"
        #expect(log.values == ["first"])
        disposer.dispose()
    }

    @Test func everySubscriptionListensOnItsOwn() {
        let node = MutableNode(10)
        let first = EventLog<Int>()
        let second = EventLog<Int>()
        let signal = node.signal
        let d1 = signal.subscribe(into: first)
        node.value = 11
        let d2 = signal.map { $0 * 2 }.subscribe(into: second)
        node.value = 12
        #expect(first.values == [10, 11, 12])
        #expect(second.values == [22, 24])
        d1.dispose()
        node.value = 13
        #expect(first.values == [10, 11, 12])
        #expect(second.values == [22, 24, 26])
        d2.dispose()
    }

    @Test func disposingStopsListening() {
        let node = MutableNode(1)
        let log = EventLog<Int>()
        let disposer = node.signal.subscribe(into: log)
        #expect(node.hasListener)
        disposer.dispose()
        #expect(!node.hasListener)
        #expect(disposer.isDisposed)
        node.value = 2
        #expect(log.values == [1])
    }

    @Test func takeEndsTheSubscriptionAndDetaches() {
        let node = MutableNode(1)
        let log = EventLog<Int>()
        node.signal.take(2).subscribe(into: log)
        node.value = 2
        node.value = 3
        #expect(log.values == [1, 2])
        #expect(log.end == "completed")
        #expect(!node.hasListener)
    }

    @Test func subscriptionKeepsTheNodeAliveUntilDisposed() {
        let log = EventLog<Int>()
        weak var weakNode: MutableNode<Int>?
        var disposer: Disposer?
        do {
            let node = MutableNode(7)
            weakNode = node
            disposer = node.signal.subscribe(into: log)
        }
        #expect(weakNode != nil)   // pinned by its listener while subscribed
        weakNode?.value = 8
        #expect(log.values == [7, 8])
        disposer?.dispose()
        #expect(weakNode == nil)
    }

    @Test func nothingLeaksAfterDisposal() {
        expectReleased { tracker in
            let node = tracker.track(MutableNode(1), "node")
            let mapped = tracker.track(node.map { $0 + 1 }, "mapped")
            let log = EventLog<Int>()
            let disposer = mapped.signal.map { $0 * 10 }.subscribe(into: log)
            node.value = 2
            #expect(log.values == [20, 30])
            disposer.dispose()
        }
    }

    @Test func nothingLeaksAfterTake() {
        expectReleased { tracker in
            let node = tracker.track(MutableNode("a"), "node")
            let log = EventLog<String>()
            node.signal.take(1).subscribe(into: log)
            #expect(log.values == ["a"])
        }
    }
}
