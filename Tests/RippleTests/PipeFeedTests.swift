import Ripple
import RippleTesting
import Testing

struct SearchActions: Sendable {
    var search = ActionKey<String, Void>("search:")
    var move = ActionKey<Int, Int, Void>("moveX:y:")
    var count = ActionKey<Int, Void>("count:")
}

struct SelectionActions: Sendable {
    var select = ActionKey<String?, Void>("select:")
    var attach = ActionKey<FedObject, Void>("attach:")
    var anything = ActionKey<any Sendable, Void>("anything:")
}

final class FedObject: Sendable {}

@Suite("Bridge: registerAction(_:).feed(_:)")
struct PipeFeedTests {
    @Test func everyCallSetsTheNode() {
        let pipe = ActionPipe(SearchActions())
        let query = MutableNode<String>()
        pipe.registerAction(\.search).feed(query)
        let bag = CancelBag()
        let heard = Recorder<String>()
        query.listened(by: bag).withBlock(heard.callAsFunction)
        let upper = query.map { $0.uppercased() }
        #expect(pipe.search("rip") != nil)     // the feeding action ran
        pipe.call(\.search, "ripple")
        #expect(heard.values == ["rip", "ripple"])
        #expect(upper.value == "RIPPLE")
    }

    @Test func feedsThroughAChainInOrder() {
        let head = ActionPipe(SearchActions())
        let tail = ActionPipe(SearchActions())
        let seen = Recorder<String>()
        head.registerAction(\.search).action { _, text in seen.record("head \(text)") }
        let node = MutableNode<String>()
        tail.registerAction(\.search).feed(node)
        let bag = CancelBag()
        node.listened(by: bag).withBlock { seen.record("node \($0)") }
        head.addPipe(tail)
        tail.search("q")
        #expect(seen.values == ["head q", "node q"])
    }

    /// The argument reaches the node as itself, with no reinterpretation of its bits: a `nil` of an optional
    /// node's type, the same object, an existential.
    @Test func optionalObjectAndExistentialArgumentsArriveAsThemselves() {
        let pipe = ActionPipe(SelectionActions())
        let selected = MutableNode<String?>()
        let attached = MutableNode<FedObject>()
        let anything = MutableNode<any Sendable>()
        pipe.registerAction(\.select).feed(selected)
        pipe.registerAction(\.attach).feed(attached)
        pipe.registerAction(\.anything).feed(anything)
        pipe.select("first")
        #expect(selected.value == .some("first"))
        pipe.select(nil)
        #expect(!selected.isEmpty)
        #expect(selected.value == .some(nil))
        let object = FedObject()
        pipe.attach(object)
        #expect(attached.value === object)
        pipe.anything(42)
        #expect(anything.value as? Int == 42)
        pipe.anything("text")
        #expect(anything.value as? String == "text")
    }

    @Test func requirementsApply() {
        let pipe = ActionPipe(SearchActions())
        let node = MutableNode<Int>()
        pipe.registerAction(\.count).state(0b01).feed(node)
        pipe.doWithState(0b10).count(1)
        #expect(node.isEmpty)
        pipe.doWithState(0b01).count(2)
        #expect(node.value == 2)
        pipe.count(3)      // a call without state runs every action
        #expect(node.value == 3)
    }

    @Test func theNodeIsHeldWeakly() {
        let pipe = ActionPipe(SearchActions())
        expectReleased { tracker in
            let node = tracker.track(MutableNode<String>(), "node")
            pipe.registerAction(\.search).feed(node)
            pipe.search("alive")
            #expect(node.value == "alive")
        }
        // Once the node is gone the action is skipped: no action ran, so the call returns nil.
        #expect(pipe.search("gone") == nil)
    }

    @Test func nothingLeaks() {
        expectReleased { tracker in
            let pipe = tracker.track(ActionPipe(SearchActions()), "pipe")
            let node = tracker.track(MutableNode<Int>(), "node")
            pipe.registerAction(\.count).feed(node)
            pipe.count(1)
            #expect(node.value == 1)
        }
    }

    @Test func twoArgumentKeyIsAProgrammerError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(SearchActions())
            pipe.registerAction(\.move).feed(MutableNode<Int>())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionRegistration.feed(_:) needs a key with one argument of type Int, got (Int, Int)"))
    }

    @Test func wrongArgumentTypeIsAProgrammerError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(SearchActions())
            pipe.registerAction(\.search).feed(MutableNode<Int>())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionRegistration.feed(_:) needs a key with one argument of type Int, got (String)"))
    }
}
