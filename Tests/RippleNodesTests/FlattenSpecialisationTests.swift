import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// `flattenMap` links every inner node and follows it until the next one replaces it. Engine 2 took the value of an
/// inner node nobody else could reach without a link, deciding "nobody else" from the runtime's weak and unowned
/// reference counts; issue 28 removed those reads (Swift offers no supported way to ask), and with them the shortcut.
/// What users see is pinned as before: the same values in the same order, later changes of inner nodes held
/// strongly, weakly or unowned arriving, and replaced inner nodes let go.
@Suite("flattenMap: inner nodes, fresh or held")
struct FlattenSpecialisationTests {
    /// Keeps the inner nodes a test wants reachable.
    private final class Keeper<Value: Sendable>: @unchecked Sendable {
        private let lock = Locked<[Node<Value>]>([])

        func keep(_ node: Node<Value>) -> Node<Value> {
            lock.withLock { $0.append(node) }
            return node
        }

        var last: Node<Value>? {
            lock.withLock { $0.last }
        }
    }

    private final class UnownedBox<Object: AnyObject>: @unchecked Sendable {
        unowned(safe) var object: Object

        init(_ object: Object) {
            self.object = object
        }
    }

    @Test func freshInnerNodesAreFollowed() {
        let bag = CancelBag()
        let source = MutableNode<Int>()
        let output = source.flattenMap { Node($0 * 10) }
        let received = Recorder<Int>()
        output.listened(by: bag).withBlock { received.record($0) }
        source.value = 1
        source.value = 2
        source.value = 2
        #expect(received.values == [10, 20, 20])
        // The flattenMap edge and one follower: the replaced inner nodes' followers are gone.
        #expect(output.upstreamTransforms.count == 2)
    }

    @Test func anEmptyFreshInnerNodeEmptiesTheOutput() {
        let source = MutableNode<Int>()
        let output = source.flattenMap { $0 > 0 ? Node($0) : Node<Int>() }
        source.value = 3
        #expect(output.value == 3)
        source.value = 0
        #expect(output.isEmpty)
        source.value = 4
        #expect(output.value == 4)
    }

    /// An inner node someone else holds is followed until the next one replaces it, then unlinked and let go.
    @Test func aHeldInnerNodeIsFollowedThenLetGo() {
        let keeper = Keeper<Int>()
        let source = MutableNode<Int>()
        let output = source.flattenMap { keeper.keep(MutableNode($0)) }
        source.value = 1
        let first = keeper.last!.mutablify()
        first.value = 5
        #expect(output.value == 5)
        #expect(output.upstreamTransforms.count == 2)
        source.value = 2
        first.value = 6
        #expect(output.value == 2)
        #expect(first.downstreamTransforms.isEmpty)
        keeper.last!.mutablify().value = 7
        #expect(output.value == 7)
    }

    /// A weak or unowned reference is enough to change the inner node later: it must be linked. (Engine 2 decided
    /// this from the runtime's reference counts; a shortcut that skipped the link broke this case.)
    @Test(arguments: ["weak", "unowned"])
    func anInnerNodeReferencedWeaklyOrUnownedIsLinked(_ kind: String) throws {
        let weakBox = WeakReference<Node<Int>>()
        let unownedBoxes = Locked<[UnownedBox<Node<Int>>]>([])
        let source = MutableNode<Int>()
        let output = source.flattenMap { value -> Node<Int> in
            let inner = Node(value)
            if kind == "weak" {
                weakBox.object = inner
            } else {
                unownedBoxes.withLock { $0.append(UnownedBox(inner)) }
            }
            return inner
        }
        source.value = 1
        // Linked: the flattenMap edge and a follower (checked first: an unowned reference to a freed node traps).
        try #require(output.upstreamTransforms.count == 2)
        let inner = try #require(kind == "weak" ? weakBox.object : unownedBoxes.withLock { $0.last?.object })
        inner.mutablify().value = 9
        #expect(output.value == 9)
    }

    /// A fresh node that is itself downstream of another changes with it: it must be linked.
    @Test func aFreshInnerNodeWithAnUpstreamIsLinked() {
        let other = MutableNode(100)
        let source = MutableNode<Int>()
        let output = source.flattenMap { value in other.map { $0 + value } }
        source.value = 1
        #expect(output.value == 101)
        other.value = 200
        #expect(output.value == 201)
        source.value = 2
        #expect(output.value == 202)
        other.value = 300
        #expect(output.value == 302)
    }

    /// Taking a value must look exactly like linking the inner node: the same values, in the same order, with
    /// re-entrant sets from listeners and a ring from the output back into the source.
    @Test func takingAValueLooksLikeLinking() {
        func run(keepInner: Bool) -> [String] {
            let keeper = Keeper<Int>()
            let bag = CancelBag()
            let log = Recorder<String>()
            let source = MutableNode<Int>()
            let output = source.flattenMap { value -> Node<Int> in
                let inner = Node(value + 1)
                return keepInner ? keeper.keep(inner) : inner
            }
            let twice = output.flattenMap { Node($0 * 2) }
            output.listened(by: bag).withContextBlock { value, context in
                log.record("output \(value) \(String(describing: context))")
                if value < 5 { source.value = value }
            }
            twice.listened(by: bag).withBlock { log.record("twice \($0)") }
            source.link(to: twice.filter { $0 < 30 })
            source.set(1, context: "start")
            return log.values
        }
        let linked = run(keepInner: true)
        #expect(!linked.isEmpty)
        #expect(run(keepInner: false) == linked)
    }

    /// Sets from two threads, each value switching to a fresh or a held inner node: whatever the interleaving, at
    /// most one follower stays linked, and the output ends with the last value.
    @Test func concurrentSwitchesLeaveAtMostOneFollower() {
        let keeper = Keeper<Int>()
        let source = MutableNode<Int>()
        let output = source.flattenMap { value in value % 3 == 0 ? keeper.keep(Node(value)) : Node(value) }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<2_000 { source.value = thread * 10_000 + index }
        }
        #expect(output.upstreamTransforms.count <= 2)
        source.value = 3
        #expect(output.value == 3)
        #expect(output.upstreamTransforms.count == 2)
        source.value = 4
        #expect(output.value == 4)
        #expect(output.upstreamTransforms.count == 2)
    }

    @Test func chainsAndInnerNodesAreFreed() {
        expectReleased { tracker in
            let bag = CancelBag()
            let source = MutableNode(1)
            let keeper = Keeper<Int>()
            let output = tracker.track(source.flattenMap { value in
                tracker.track(value == 2 ? keeper.keep(Node(value)) : Node(value), "inner \(value)")
            }, "output")
            let chained = tracker.track(output.flattenMap { Node($0) }, "chained")
            chained.listened(by: bag).withBlock { _ in }
            source.value = 2
            source.value = 3
            bag.cancel()
            _ = keeper
        }
    }
}
