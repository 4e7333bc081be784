import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Ownership: chains are freed when unreferenced")
struct LeakTests {
    /// Builds one operator's chain from a fresh input, tracks the nodes and transforms, then drops them.
    static let chains: [String: @Sendable (MutableNode<Int>, TestScheduler) -> [AnyObject]] = [
        "fork": { input, _ in [input.fork()] },
        "map": { input, _ in [input.map { $0 + 1 }] },
        "mapReplace": { input, _ in [input.mapReplace("x")] },
        "filter": { input, _ in [input.filter { $0 > 0 }] },
        "ignore": { input, _ in [input.ignore(1)] },
        "select": { input, _ in [input.select(1)] },
        "distinctUntilChanged": { input, _ in [input.distinctUntilChanged()] },
        "throttle": { input, scheduler in [input.throttle(.seconds(1), on: scheduler)] },
        "debounce": { input, scheduler in [input.debounce(.seconds(1), on: scheduler)] },
        "skip": { input, _ in [input.skip(1)] },
        "take": { input, _ in [input.take(1)] },
        "deliver": { input, scheduler in [input.deliver(on: scheduler)] },
        "delay": { input, scheduler in [input.delay(.seconds(1), on: scheduler)] },
        "scan": { input, _ in [input.scan(start: 0) { $0 + $1 }] },
        "combine": { input, _ in [Node.combine(input, MutableNode("b")).mapEach { "\($0)\($1)" }] },
        "merge": { input, _ in [input.merge(MutableNode(2))] },
        "zip": { input, _ in [Node.zip(input, MutableNode("b"), MutableNode(true))] },
        "switch": { input, _ in
            let nodes = input.switch { $0 > 0 ? "positive" : nil }
            return [nodes, nodes.case("positive"), nodes.default]
        },
        "switchMap": { input, _ in
            let nodes = input.switchMap { ($0 % 2, "\($0)") }
            return [nodes, nodes.case(0)]
        },
        "if": { input, _ in
            let result = input.if { $0 > 0 }
            return [result.thenNode, result.elseNode]
        },
        "flatten": { input, _ in
            let high = MutableNode<Node<Int>>(input)
            return [high, high.flatten()]
        },
        "flattenMap": { input, _ in [input.flattenMap { MutableNode($0).map { $0 } }] },
        "link": { input, _ in
            let down = Node<Int>()
            down.link(to: input)
            return [down]
        },
    ]

    @Test(arguments: Array(chains.keys).sorted())
    func operatorChainIsReleased(_ name: String) {
        let build = Self.chains[name]!
        expectReleased { tracker in
            let scheduler = TestScheduler()
            let input = tracker.track(MutableNode(1), "input")
            let bag = CancelBag()
            for object in build(input, scheduler) {
                tracker.track(object, "\(name) output")
                if let node = object as? any GraphNode {
                    for edge in node.upstreamTransforms { tracker.track(edge, "\(name) transform") }
                }
                if let node = object as? Node<Int> { node.listened(by: bag).withBlock { _ in } }
            }
            input.value = 2
            input.value = 3
            scheduler.run()
        }
    }

    @Test func listenedChainLivesWhileTheOwnerDoesThenGoes() {
        weak var weakInput: MutableNode<Int>?
        weak var weakOutput: Node<String>?
        var owner: CancelBag? = CancelBag()
        do {
            let input = MutableNode(1)
            weakInput = input
            let output = input.map { $0 * 2 }.filter { $0 > 0 }.map { "\($0)" }
            weakOutput = output
            output.listened(by: owner!).withBlock { _ in }
        }
        #expect(weakInput != nil && weakOutput != nil)
        owner = nil
        #expect(weakInput == nil && weakOutput == nil)
    }

    @Test func syncRingLivesUntilCancelledThenIsReleased() {
        weak var weakA: MutableNode<Int>?
        weak var weakB: MutableNode<Int>?
        var ring: (any CancelToken)?
        do {
            let a = MutableNode(1)
            let b = MutableNode(2)
            weakA = a
            weakB = b
            ring = a.syncWith(b)
        }
        #expect(weakA != nil && weakB != nil)
        weakA?.value = 7
        #expect(weakB?.value == 7)
        ring?.cancel()
        #expect(weakA == nil && weakB == nil)
    }

    @Test func manualRingLivesUntilUnlinked() {
        weak var weakA: MutableNode<Int>?
        do {
            let a = MutableNode(1)
            let b = MutableNode(2)
            let c = MutableNode(3)
            weakA = a
            b.link(to: a)
            c.link(to: b)
            a.link(to: c)
        }
        #expect(weakA != nil)
        weakA?.upstreamNodes.first?.removeUpstreams()
        weakA?.removeUpstreams()
        #expect(weakA == nil)
    }

    @Test func liveObjectCountersCountNodesTransformsAndListenEdges() {
        let bag = CancelBag()
        let node = MutableNode(1)
        let doubled = node.map { $0 * 2 }
        doubled.listened(by: bag).withBlock { _ in }
        // Other tests run in parallel, so only a lower bound is certain here.
        let kinds = RippleDiagnostics.liveObjects
        #expect(kinds["Node", default: 0] >= 2)
        #expect(kinds["Transform", default: 0] >= 1)
        #expect(kinds["ListenEdge", default: 0] >= 1)
    }
}

@Suite("Ownership: long-lived upstream nodes")
struct LongLivedUpstreamTests {
    @Test func droppedDerivedNodesLeaveNoEdgesBehind() {
        let source = MutableNode(0)
        for value in 0..<100 {
            let derived = source.map { $0 + value }
            #expect(derived.value == value)
        }
        #expect(source.downstreamTransforms.isEmpty)
        let kept = source.fork()
        #expect(source.downstreamTransforms.count == 1)
        _ = kept
    }
}
