import Observation
import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Observable
final class Profile: @unchecked Sendable {
    // Tests touch it from one thread at a time.
    var title = "untitled"
    var score = 0
}

@Suite("Binding: @Observable properties")
struct BindingTests {
    @Test func propertyToNode() {
        let scheduler = TestScheduler()
        let model = Profile()
        let node = Node.observing(model, \.title, on: scheduler)
        #expect(node.value == "untitled")
        model.title = "hello"
        #expect(node.value == "untitled")  // Observation reports before the write; the read happens on the scheduler
        scheduler.run()
        #expect(node.value == "hello")
        model.title = "again"
        scheduler.run()
        #expect(node.value == "again")
    }

    @Test func nodeToProperty() {
        let bag = CancelBag()
        let model = Profile()
        let node = MutableNode(3)
        node.bind(to: model, \.score, by: bag)
        #expect(model.score == 3)
        node.value = 7
        #expect(model.score == 7)
        bag.cancel()
        node.value = 9
        #expect(model.score == 7)
    }

    @Test func twoWayBindingSettlesWithoutPingPong() {
        let scheduler = TestScheduler()
        let bag = CancelBag()
        let model = Profile()
        model.title = "from model"
        let node = MutableNode("from node")
        let nodeValues = Recorder<String>()
        node.listened(by: bag).withBlock { nodeValues.record($0) }
        let binding = node.sync(with: model, \.title, on: scheduler, by: bag)
        #expect(node.value == "from model")
        #expect(model.title == "from model")

        node.value = "typed"
        #expect(model.title == "typed")
        scheduler.run()  // the model's change notification comes back and stops: the node already holds it
        #expect(scheduler.pendingCount == 0)

        model.title = "edited"
        scheduler.run()
        #expect(node.value == "edited")
        #expect(scheduler.pendingCount == 0)
        #expect(nodeValues.values == ["from node", "from model", "typed", "edited"])

        binding.cancel()
        model.title = "after cancel"
        scheduler.run()
        node.value = "node after cancel"
        #expect(model.title == "after cancel")
        #expect(nodeValues.values.last == "node after cancel")
    }
}
