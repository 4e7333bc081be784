import RippleNodes
import Testing

/// The node preconditions not covered next to their operators' tests (issue 10's exit-test catalogue).
@Suite("Node programmer errors: the rest of the catalogue")
struct ProgrammerErrorCatalogueTests {
    @Test func settingAReadOnlyNodeThroughADowncastStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = Node(1).named("constant")
            // Every node is physically a MutableNode (a class cluster); only mutablify() may make it writable.
            (node as! MutableNode<Int>).value = 2
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("MutableNode.set(_:context:) on read-only node 'constant'; call mutablify() first"))
    }

    @Test func aTransformChangingTheTypeMustOverrideNext() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Unfinished: Transform<Int, String>, @unchecked Sendable {}
            let source = MutableNode(1)
            let target = MutableNode<String>()
            _ = target.link(to: source, transform: Unfinished())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Transform<Int, String> must override next(_:senders:context:)"))
    }

    @Test func nodeInitializersAreForNodesOnly() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct NotANode: NodeInitializable { typealias Value = Int }
            _ = NotANode(1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("NodeInitializable.init is for Node and MutableNode only, not NotANode"))
    }
}
