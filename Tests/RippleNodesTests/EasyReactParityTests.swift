import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// Issue 22: EasyReact behaviours and APIs RippleNodes lacked or got wrong.
@Suite("EasyReact parity: flatten re-pointing, removeCancelable, sender lists, then, typed graph queries, cases")
struct EasyReactParityTests {
    @Test func repointingFlattenToAnEmptyHighOrderNodeDropsTheOldInnerNode() throws {
        let inner = MutableNode(1)
        let outer = MutableNode<Node<Int>>(inner)
        let flat = outer.flatten()
        #expect(flat.value == 1)
        let edge = try #require(flat.transforms(from: outer).first)
        edge.from = MutableNode<Node<Int>>()
        inner.value = 2
        #expect(flat.value == 1)
        #expect(inner.downstreamTransforms.isEmpty)
    }

    @Test func repointingFlattenToAFullHighOrderNodeFollowsItsValue() throws {
        let old = MutableNode(1), new = MutableNode(10)
        let flat = MutableNode<Node<Int>>(old).flatten()
        let edge = try #require(flat.upstreamTransforms(of: Node<Int>.self).first)
        edge.from = MutableNode<Node<Int>>(new)
        #expect(flat.value == 10)
        old.value = 2
        new.value = 11
        #expect(flat.value == 11)
    }

    @Test func cancelBagGivesATokenBackUncancelled() {
        let bag = CancelBag()
        let node = MutableNode(0)
        let received = Recorder<Int>()
        let kept = node.listened(by: bag).withBlock { received.record($0) }
        let other = node.listened(by: bag).withBlock { _ in }
        #expect(bag.remove(kept))
        #expect(!bag.remove(kept))
        #expect(bag.count == 1)
        bag.cancel()
        #expect(!kept.isCancelled)
        #expect(other.isCancelled)
        node.value = 1
        #expect(received.values == [0, 1])
        kept.cancel()
    }

    @Test func cancelBagRemoveFindsEntriesWhileItPrunes() {
        // 16 entries trigger a prune; the tokens it asks `isCancelled` of can remove one another meanwhile.
        let bag = CancelBag()
        let victim = ClosureCancelToken {}
        let remover = ProbeToken { #expect(bag.remove(victim)) }
        bag.insert(victim)
        bag.insert(remover)
        for _ in 0..<14 { bag.insert(ClosureCancelToken {}) }
        #expect(remover.probed)
        #expect(bag.count == 15)
        bag.cancel()
        #expect(!victim.isCancelled)
    }

    @Test func cancelBagCannotFindAValueTypeToken() {
        let bag = CancelBag()
        bag.insert(ValueToken())
        #expect(!bag.remove(ValueToken()))
        #expect(bag.count == 1)
    }

    @Test func senderListListenerSeesTheNodesTheValueCameThrough() {
        let bag = CancelBag()
        let source = MutableNode<Int>().named("source")
        let doubled = source.map { $0 * 2 }
        let unrelated = MutableNode(0)
        let seen = Recorder<String>()
        doubled.listened(by: bag).withSenderListAndContextBlock { value, senders, context in
            let through = senders.contains(source) && senders.contains(doubled) && !senders.contains(unrelated)
            seen.record("\(value) \(through) \(senders.count) \(context as? String ?? "-")")
        }
        source.set(1, context: "ctx")
        #expect(seen.values == ["2 true 2 ctx"])
    }

    @Test func senderListOfTheCurrentValueHoldsTheListenedNodeAlone() {
        let bag = CancelBag()
        let source = MutableNode(1)
        let doubled = source.map { $0 * 2 }
        let seen = Recorder<String>()
        doubled.listened(by: bag).withSenderListAndContextBlock { value, senders, _ in
            seen.record("\(value) \(senders.contains(doubled)) \(senders.contains(source)) \(senders.count)")
        }
        #expect(seen.values == ["2 true false 1"])
    }

    @Test func thenHandsTheNodeToTheBlockAndReturnsIt() {
        let bag = CancelBag()
        let received = Recorder<Int>()
        let node = MutableNode(1).then { $0.listened(by: bag).withBlock { received.record($0) } }
        node.value = 2       // still a MutableNode
        #expect(received.values == [1, 2])
        let derived = node.map { $0 + 1 }
        #expect(derived.then { _ in } === derived)
    }

    @Test func withTargetPassesTheContextToo() {
        let bag = CancelBag()
        let node = MutableNode(1)
        var target: Box? = Box()
        let seen = Recorder<String>()
        node.listened(by: bag).withTarget(target!) { box, value, context in
            seen.record("\(box.tag) \(value) \(context as? String ?? "-")")
        }
        node.set(2, context: "ctx")
        target = nil
        node.value = 3
        #expect(seen.values == ["box 1 -", "box 2 ctx"])
    }

    @Test func typedGraphQueriesRepointWithoutACast() throws {
        let a = MutableNode(1), b = MutableNode(10)
        let doubled = a.map { $0 * 2 }
        #expect(doubled.upstreamTransforms(of: String.self).isEmpty)
        let edge = try #require(doubled.transforms(from: a).first)
        edge.from = b
        #expect(doubled.value == 20)
        let out = try #require(b.transforms(to: doubled).first)
        let other = MutableNode<Int>()
        out.to = other
        #expect(other.value == 20)
        #expect(b.downstreamTransforms(of: Int.self).count == 1)
        #expect(b.downstreamTransforms(of: String.self).isEmpty)
    }

    @Test func aHalfLinkedTransformIsListedUpstreamOnly() {
        let from = MutableNode(1), to = MutableNode<Int>()
        let transform = Transform<Int, Int>()
        transform.to = to
        #expect(to.upstreamTransforms.count == 1)
        transform.from = from
        #expect(from.downstreamTransforms.count == 1)
        transform.to = nil
        #expect(from.downstreamTransforms.isEmpty)
        #expect(to.upstreamTransforms.isEmpty)
        let loose = Transform<Int, Int>()
        loose.from = from
        #expect(from.downstreamTransforms.isEmpty)
        withExtendedLifetime(loose) {}
    }
}

private final class Box: Sendable {
    let tag = "box"
}

private struct ValueToken: CancelToken {
    func cancel() {}
    var isCancelled: Bool { false }
}

/// A token that runs `probe` the first time a prune asks whether it is cancelled.
private final class ProbeToken: CancelToken, @unchecked Sendable {
    private let lock = Lock()
    private var probe: (() -> Void)?
    private var didProbe = false
    init(_ probe: @escaping () -> Void) { self.probe = probe }
    func cancel() {}
    var isCancelled: Bool {
        let run = lock.withLock { () -> (() -> Void)? in
            defer { probe = nil; didProbe = true }
            return probe
        }
        run?()
        return false
    }
    var probed: Bool { lock.withLock { didProbe } }
}
