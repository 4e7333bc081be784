import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The seed's "连接两个节点" section.
@Suite("Seed: linking nodes")
struct SeedLinkingTests {
    @Test func settingFromAndTo() {
        let nodeA = MutableNode(1)
        let nodeB = Node<Int>()
        let transform = Transform<Int, Int>()
        transform.from = nodeA
        transform.to = nodeB
        #expect(nodeB.value == 1)
    }

    @Test func linkTo() {
        let nodeA = MutableNode(1)
        let nodeB = Node<Int>()
        nodeB.link(to: nodeA, transform: Transform())
        #expect(nodeB.value == 1)
        let nodeC = MutableNode(2)
        let nodeD = Node<Int>()
        nodeD.link(to: nodeC)
        #expect(nodeD.value == 2)
    }

    @Test func unlinkingByTransformTo() {
        let nodeA = MutableNode(1)
        let nodeB = Node<Int>()
        let transform = Transform<Int, Int>()
        nodeB.link(to: nodeA, transform: transform)
        #expect(nodeB.value == 1)
        nodeA.value = 2
        #expect(nodeB.value == 2)
        transform.to = nil
        nodeA.value = 3
        #expect(nodeB.value == 2)
    }

    @Test func removeMethods() {
        let nodeA = MutableNode(1)
        let nodeB = Node<Int>()
        nodeB.link(to: nodeA)
        nodeB.removeUpstream(nodeA)
        nodeA.value = 2
        #expect(nodeB.value == 1)
        #expect(nodeB.upstreamNodes.isEmpty && nodeA.downstreamNodes.isEmpty)

        nodeB.link(to: nodeA)
        nodeA.removeDownstream(nodeB)
        nodeA.value = 3
        #expect(nodeB.value == 2)

        nodeB.link(to: nodeA)
        nodeB.removeUpstreams()
        nodeA.value = 4
        #expect(nodeB.value == 3)

        nodeB.link(to: nodeA)
        nodeA.removeDownstreams()
        nodeA.value = 5
        #expect(nodeB.value == 4)
    }

    @Test func linkReturnsACancellable() {
        let nodeA = MutableNode(1)
        let nodeB = Node<Int>()
        let link = nodeB.link(to: nodeA)
        link.cancel()
        nodeA.value = 2
        #expect(nodeB.value == 1)
    }

    @Test func implicitLinking() {
        let nodeA = MutableNode(1)
        let nodeB = nodeA.fork()
        #expect(nodeB.value == 1)
        let nodeC = nodeA.map { $0 * 2 }
        #expect(nodeC.value == 2)
        nodeA.value = 5
        #expect(nodeB.value == 5 && nodeC.value == 10)
        #expect(nodeC.upstreamNodes.count == 1 && nodeC.upstreamNodes.first === nodeA)
        #expect(nodeA.downstreamNodes.count == 2)
        #expect(nodeA.downstreamTransforms(to: nodeC).count == 1)
        #expect(nodeC.upstreamTransforms(from: nodeA).first?.name == "map")
    }

    @Test func customTransformSubclass() {
        final class Doubling: Transform<Int, String>, @unchecked Sendable {
            override func next(_ value: Int, senders: SenderList, context: (any Sendable)?) {
                emit("\(value * 2)", senders: senders, context: context)
            }
        }
        let nodeA = MutableNode(2)
        let nodeB = Node<String>()
        nodeB.link(to: nodeA, transform: Doubling())
        #expect(nodeB.value == "4")
    }
}
