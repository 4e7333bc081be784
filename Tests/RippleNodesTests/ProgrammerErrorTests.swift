import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Programmer errors stop with a message naming the API and the value")
struct NodeProgrammerErrorTests {
    @Test func selfLink() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = MutableNode(1).named("a")
            node.link(to: node)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.link(to:) cannot link node 'a' to itself"))
    }

    @Test func selfLinkThroughTransformFrom() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = MutableNode(1).named("b")
            let transform = Transform<Int, Int>()
            transform.to = node
            transform.from = node
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Transform.from cannot link node 'b' to itself"))
    }

    @Test func reusedEdge() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let up = MutableNode(1)
            let transform = Transform<Int, Int>()
            transform.name = "shared"
            let first = Node<Int>()
            first.link(to: up, transform: transform)
            Node<Int>().link(to: up, transform: transform)
            withExtendedLifetime(first) {}
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.link(to:transform:) needs an unused transform, but 'shared' is already linked"))
    }

    @Test func negativeSkip() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MutableNode(1).skip(-1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.skip(_:) needs a count ≥ 0, got -1"))
    }

    @Test func negativeTake() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MutableNode(1).take(-2)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.take(_:) needs a count ≥ 0, got -2"))
    }

    @Test func zeroThrottle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MutableNode(1).throttle(.zero, on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.throttle(_:on:latest:) needs an interval > 0, got 0.0 seconds"))
    }

    @Test func negativeDelay() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MutableNode(1).delay(.seconds(-1), on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.delay(_:on:) needs an interval > 0, got -1.0 seconds"))
    }

    @Test func zeroDebounce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MutableNode(1).debounce(.zero, on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Node.debounce(_:on:) needs an interval > 0, got 0.0 seconds"))
    }
}
