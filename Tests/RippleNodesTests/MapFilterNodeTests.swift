import Dispatch
import RippleCore
import RippleNodes
import Testing

/// `map` and `filter` nodes: engine 2 fused each into one object holding its operator (upgraded with the runtime's
/// `swift_tryRetain`, found with `dlsym`); since issue 29 they are nodes linked by a plain transform. These cases were
/// written against fusion and pin what users see either way: graph queries, link order, lifetimes, frees racing sets.
@Suite("Engine: map and filter nodes")
struct MapFilterNodeTests {
    @Test func aGraphQueryHandsOutTheMapTransformWhichKeepsWorking() {
        let a = MutableNode(1)
        let b = MutableNode(100)
        let doubled = a.map { $0 * 2 }
        let bag = CancelBag()
        let heard = Locked<[Int]>([])
        doubled.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
        a.value = 2
        let transforms = doubled.upstreamTransforms(of: Int.self)
        #expect(transforms.count == 1)
        #expect(transforms.first?.name == "map")
        #expect(transforms.first?.from === a)
        #expect(transforms.first?.to === doubled)
        // The same transform, asked again and from the other end.
        #expect(doubled.upstreamTransforms.first === transforms.first)
        #expect(a.downstreamTransforms.first === transforms.first)
        a.value = 3
        transforms.first?.from = b
        a.value = 4
        b.value = 5
        #expect(heard.value == [2, 4, 6, 200, 10])
        bag.cancel()
    }

    @Test func materializingKeepsTheLinkOrderOfEveryDownstreamEdge() {
        let source = MutableNode(4)
        let first = source.map { $0 + 1 }
        let second = source.filter { $0 > 0 }
        let third = source.skip(0)
        let fourth = source.map { $0 * 10 }
        let names = source.downstreamTransforms.map(\.name)
        #expect(names == ["map", "filter", "skip", "map"])
        let targets = source.downstreamNodes
        #expect(targets.count == 4)
        #expect(targets[0] === first && targets[1] === second && targets[2] === third && targets[3] === fourth)
        source.value = 5
        #expect([first.value, second.value, third.value, fourth.value] == [6, 5, 5, 50])
    }

    @Test func aMapNodeLinkedToASecondUpstreamWaitsForBoth() {
        let a = MutableNode(1)
        let b = MutableNode(10)
        let sum = a.map { $0 }
        sum.link(to: b)
        let upstreams = sum.upstreamNodes
        #expect(upstreams.count == 2)
        #expect(upstreams.first === a && upstreams.last === b)
        b.value = 20
        #expect(sum.value == 20)
        a.value = 2
        #expect(sum.value == 2)
    }

    @Test func aFilterLeavesItsNodeUnchangedForRejectedValues() {
        let source = MutableNode(2)
        let even = source.filter { $0.isMultiple(of: 2) }
        let bag = CancelBag()
        let heard = Locked<[Int]>([])
        even.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
        for value in 3...8 { source.value = value }
        #expect(heard.value == [2, 4, 6, 8])
        #expect(even.value == 8)
        bag.cancel()
    }

    @Test func aMapOfAnotherTypeCarriesItsValues() {
        let source = MutableNode(7)
        let text = source.map { "n\($0)" }.map { $0 + "!" }
        let length = text.map(\.count)
        source.value = 12
        #expect(text.value == "n12!")
        #expect(length.value == 4)
    }

    /// Values larger than a node's inline storage (kept boxed) go into and out of map and filter intact, and the
    /// closures of freed nodes go with them.
    @Test func largeValuesAndCapturingClosures() {
        struct Wide: Sendable, Equatable {
            var a, b, c, d, e: Int
        }
        let tracked = Locked(0)
        let source = MutableNode(Wide(a: 1, b: 2, c: 3, d: 4, e: 5))
        var sum: Node<Int>? = source.map { [tracked] wide in
            tracked.withLock { $0 += 1 }
            return wide.a + wide.b + wide.c + wide.d + wide.e
        }
        let widened = source.filter { $0.a > 0 }.map { Wide(a: $0.e, b: $0.d, c: $0.c, d: $0.b, e: $0.a) }
        source.value = Wide(a: 10, b: 20, c: 30, d: 40, e: 50)
        #expect(sum?.value == 150)
        #expect(widened.value == Wide(a: 50, b: 40, c: 30, d: 20, e: 10))
        sum = nil
        source.value = Wide(a: 1, b: 1, c: 1, d: 1, e: 1)
        // The freed node's closure ran for the two values before it was freed, and not after.
        #expect(tracked.value == 2)
        #expect(widened.value == Wide(a: 1, b: 1, c: 1, d: 1, e: 1))
    }

    /// Map and filter nodes freed while their upstream propagates on another thread: a propagation that still has
    /// a freed node's slot skips it, and the node (and its closure) go at once.
    @Test(.tags(.stress)) func mapAndFilterNodesCreatedAndFreedWhileTheSourcePropagates() {
        let source = MutableNode(0)
        let stable = source.map { $0 + 1 }
        let settled = Locked(0)
        let bag = CancelBag()
        stable.listened(by: bag).withBlock { value in settled.withLock { $0 = value } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<2_000 {
                switch thread {
                case 0: source.value = round
                case 1:
                    let derived = source.map { $0 * 2 }.filter { _ in true }
                    #expect(derived.value.map { $0.isMultiple(of: 2) } ?? true)
                case 2:
                    if round.isMultiple(of: 50) { _ = source.downstreamTransforms }
                    _ = source.map { $0 }
                default:
                    let derived = source.filter { $0 >= 0 }
                    _ = derived.value
                }
            }
        }
        source.value = 5_000
        #expect(settled.value == 5_001)
        // Every node made on the other threads is gone, and left nothing behind in the source's list.
        #expect(source.downstreamTransforms.count == 1)
        bag.cancel()
    }

    /// A listener of the upstream frees one of two map nodes: the freed one's operator runs for no later value,
    /// the other one's does, and nothing is left behind. (Listeners run once the transaction has committed, so the
    /// value the listener hears reached both.)
    @Test func aMapNodeFreedByASiblingListenerIsSkipped() {
        let source = MutableNode(0)
        let calls = Locked<[String]>([])
        let dropped = Locked<Node<Int>?>(source.map { value in
            calls.withLock { $0.append("dropped \(value)") }
            return value
        })
        let kept = source.map { value in
            calls.withLock { $0.append("kept \(value)") }
            return value + 1
        }
        let bag = CancelBag()
        source.listened(by: bag).withBlock { value in
            if value == 1 { dropped.withLock { $0 = nil } }
        }
        source.value = 1
        source.value = 2
        #expect(calls.value == ["dropped 0", "kept 0", "dropped 1", "kept 1", "kept 2"])
        #expect(kept.value == 3)
        #expect(source.downstreamNodes.count == 1)
        bag.cancel()
    }

    /// Ten thousand map nodes on one source, every other one freed (tombstones, then the list squeezed), then the
    /// rest after a set: each kept node hears the set, and the source ends with no edges.
    @Test func tenThousandMapNodesOnOneSource() {
        let source = MutableNode(0)
        var nodes: [Node<Int>?] = (0..<10_000).map { offset in source.map { $0 + offset } }
        for index in stride(from: 0, to: nodes.count, by: 2) { nodes[index] = nil }
        source.value = 1
        for index in stride(from: 1, to: nodes.count, by: 2) { #expect(nodes[index]?.value == 1 + index) }
        #expect(source.downstreamNodes.count == 5_000)
        nodes.removeAll()
        #expect(source.downstreamTransforms.isEmpty)
        source.value = 2
    }

    /// A listener of a map node asks for its upstream's transforms (engine 2 materialized the fused node it listens
    /// to then) while that node is settling.
    @Test func materializingFromInsideThePropagation() {
        let source = MutableNode(1)
        let doubled = source.map { $0 * 2 }
        let bag = CancelBag()
        let heard = Locked<[Int]>([])
        doubled.listened(by: bag).withBlock { value in
            heard.withLock { $0.append(value) }
            _ = source.downstreamTransforms
        }
        source.value = 2
        source.value = 3
        #expect(heard.value == [2, 4, 6])
        #expect(doubled.upstreamTransforms.count == 1)
        bag.cancel()
    }
}
