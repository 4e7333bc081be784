import RippleCore
import RippleNodes
import Testing

/// A node keeps its first upstream transform inline and the rest in an array; these pin link order, removal from
/// either place, and the unlinking of every upstream transform when the node is freed.
@Suite("Graph: upstream transforms stored first-inline")
struct UpstreamEdgesTests {
    private func named(_ name: String) -> Transform<Int, Int> {
        let transform = Transform<Int, Int>()
        transform.name = name
        return transform
    }

    @Test func upstreamTransformsKeepLinkOrderWhenTheFirstOrAMiddleOneGoes() {
        let a = MutableNode(1), b = MutableNode(2), c = MutableNode(3)
        let target = MutableNode(0)
        let (first, second, third) = (named("first"), named("second"), named("third"))
        target.link(to: a, transform: first)
        target.link(to: b, transform: second)
        target.link(to: c, transform: third)
        #expect(target.upstreamTransforms.map(\.name) == ["first", "second", "third"])
        first.to = nil
        #expect(target.upstreamTransforms.map(\.name) == ["second", "third"])
        #expect(a.downstreamTransforms.isEmpty)
        target.link(to: a, transform: named("fourth"))
        #expect(target.upstreamTransforms.map(\.name) == ["second", "third", "fourth"])
        third.to = nil
        #expect(target.upstreamTransforms.map(\.name) == ["second", "fourth"])
        second.to = nil
        #expect(target.upstreamTransforms.map(\.name) == ["fourth"])
        // Still linked: a's next value arrives.
        a.value = 9
        #expect(target.value == 9)
    }

    @Test func freeingANodeUnlinksEveryUpstreamTransform() {
        let a = MutableNode(1), b = MutableNode(2), c = MutableNode(3)
        weak var weakTarget: MutableNode<Int>?
        do {
            let target = MutableNode(0)
            weakTarget = target
            target.link(to: a)
            target.link(to: b)
            target.link(to: c)
            #expect(a.downstreamTransforms.count == 1 && c.downstreamTransforms.count == 1)
        }
        #expect(weakTarget == nil)
        #expect(a.downstreamTransforms.isEmpty)
        #expect(b.downstreamTransforms.isEmpty)
        #expect(c.downstreamTransforms.isEmpty)
    }
}
