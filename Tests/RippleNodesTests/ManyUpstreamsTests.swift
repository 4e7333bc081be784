import RippleCore
import RippleNodes
import Testing

/// One node fed by thousands of links (`total.link(to: item)` per item, EasyReact's `linkTo:` fan-in), unlinked one
/// by one in any order: link order, values and freeing hold throughout.
@Suite("One node with thousands of upstream links")
struct ManyUpstreamsTests {
    static let count = 2_000

    /// The upstream nodes' identities, in the order `node` lists its upstream transforms.
    static func upstreamOrder(of node: Node<Int>) -> [ObjectIdentifier?] {
        node.upstreamTransforms.map { $0.fromNode.map(ObjectIdentifier.init) }
    }

    @Test("links keep their order through unlinks in any order; every live link carries values; unlinked items are freed",
          arguments: ["first first", "last first", "odd then even"])
    func linkAndUnlinkInAnyOrder(_ order: String) {
        let total = MutableNode(0)
        var items: [MutableNode<Int>?] = (0..<Self.count).map { MutableNode($0) }
        let tokens = items.map { total.link(to: $0!) }
        let freed = items.map { WeakReference($0) }
        let inLinkOrder = Self.upstreamOrder(of: total) == items.map { $0.map(ObjectIdentifier.init) }
        #expect(inLinkOrder)
        let unlinking: [Int] = switch order {
        case "first first": Array(0..<Self.count)
        case "last first": Array((0..<Self.count).reversed())
        default: Array(stride(from: 1, to: Self.count, by: 2)) + Array(stride(from: 0, to: Self.count, by: 2))
        }
        var linked = Array(0..<Self.count)
        for (done, index) in unlinking.enumerated() {
            tokens[index].cancel()
            items[index] = nil
            if done % 997 == 0 {
                linked.removeAll { $0 == index }
                // The order of what is left, a value through a link still there, none through the one just cut.
                let expected = linked.map { freed[$0].object.map(ObjectIdentifier.init) }
                let ordered = Self.upstreamOrder(of: total) == expected
                #expect(ordered, "\(order) after \(done + 1)")
                if let live = linked.last { items[live]!.value = -live - 1 }
                #expect(total.value == linked.last.map { -$0 - 1 } ?? total.value)
            } else {
                linked.removeAll { $0 == index }
            }
        }
        #expect(total.upstreamTransforms.isEmpty)
        #expect(freed.allSatisfy { $0.object == nil })
        // Linked afresh, it carries values again.
        let again = MutableNode(7)
        total.link(to: again)
        #expect(total.value == 7)
        again.value = 8
        #expect(total.value == 8)
    }

    @Test("a node fed by thousands of links frees them all when it goes")
    func droppingTheNodeFreesEveryUpstream() {
        var total: MutableNode<Int>? = MutableNode(0)
        var items: [MutableNode<Int>] = (0..<Self.count).map { MutableNode($0) }
        for item in items { total!.link(to: item) }
        let freedTotal = WeakReference(total)
        let transforms = total!.upstreamTransforms.map { WeakReference($0 as AnyObject) }
        #expect(transforms.count == Self.count)
        total = nil
        #expect(freedTotal.object == nil)
        // The transforms let go of their items: dropping the items frees them.
        let freedItems = items.map { WeakReference($0) }
        items = []
        #expect(freedItems.allSatisfy { $0.object == nil })
        #expect(transforms.allSatisfy { $0.object == nil })
    }
}
