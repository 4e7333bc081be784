import RippleCore
import RippleNodes
import Testing

/// Issue 22's bad input: each stops with a message naming the API the caller used and the value.
@Suite("Bad input to sync, flatten and merge stops with a message naming the API")
struct BadInputTests {
    @Test func syncWithItself() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = MutableNode(1).named("a")
            _ = node.sync(with: node)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MutableNode.sync(with:) cannot sync node 'a' with itself"))
    }

    @Test func syncWithItselfUnderTheEasyReactName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = MutableNode(1).named("a")
            _ = node.syncWith(node)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MutableNode.syncWith(_:) cannot sync node 'a' with itself"))
    }

    @Test func syncWithItselfThroughConversions() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = MutableNode(1).named("a")
            _ = node.sync(with: node, transform: { $0 }, revert: { $0 })
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MutableNode.sync(with:transform:revert:) cannot sync node 'a' with itself"))
    }

    @Test func syncIntoADerivedNodeReachedByACast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = MutableNode(1)
            let derived = source.map { $0 + 1 }.named("derived")
            _ = (derived as! MutableNode<Int>).syncWith(MutableNode(5))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "MutableNode.syncWith(_:) cannot write into read-only node 'derived'; call mutablify() first"))
    }

    @Test func syncWithADerivedNodeReachedByACast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let derived = MutableNode(1).map { $0 + 1 }.named("derived")
            _ = MutableNode(5).sync(with: derived as! MutableNode<Int>)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "MutableNode.sync(with:) cannot write into read-only node 'derived'; call mutablify() first"))
    }

    @Test func syncWithAMutablifiedDerivedNodeWorks() {
        let derived = MutableNode(1).map { $0 + 1 }.mutablify()
        let other = MutableNode(5)
        let ring = derived.sync(with: other)
        #expect(derived.value == 5)
        derived.value = 7
        #expect(other.value == 7)
        ring.cancel()
    }

    @Test func flattenFollowingItsOwnOutput() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = MutableNode<Node<Int>>()
            let flat = outer.flatten().named("flat")
            outer.value = flat
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.flatten() cannot follow its own output node 'flat'"))
    }

    @Test func flattenMapPickingItsOwnOutput() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = MutableNode<Int>()
            let holder = MutableNode<Node<Int>>()
            let flat = outer.flattenMap { _ in holder.value! }.named("flat")
            holder.value = flat
            outer.value = 1
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.flattenMap(_:) cannot follow its own output node 'flat'"))
    }

    @Test func mergeOfNothing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Node.merge() as Node<Int>
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.merge() needs at least one input node, got 0"))
    }

    @Test func mergeOfOneNodeFollowsIt() {
        let a = MutableNode(1)
        let merged: Node<Int> = Node.merge(a)
        a.value = 2
        #expect(merged.value == 2)
        // Without the annotation too (it was ambiguous with the unapplied instance method `a.merge(_:)`).
        let unannotated = Node.merge(a)
        a.value = 3
        #expect(unannotated.value == 3)
        let b = MutableNode(10)
        let both = a.merge(b)
        b.value = 11
        #expect(both.value == 11)
    }
}
