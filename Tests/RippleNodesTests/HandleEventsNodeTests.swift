// handleEvents and debug on nodes, and the listener token's description.
import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("handleEvents and debug on nodes")
struct HandleEventsNodeTests {
    @Test("handleEvents(value:) sees each value before the derived node's listeners, which get it unchanged")
    func handleEventsOrder() {
        let log = Recorder<String>()
        let node = MutableNode(1)
        let watched = node.handleEvents(value: { log.record("hook \($0)") })
        let bag = CancelBag()
        watched.listened(by: bag).withBlock { log.record("listener \($0)") }
        node.value = 2
        node.clean()
        node.value = 3
        #expect(log.values == ["hook 1", "listener 1", "hook 2", "listener 2", "hook 3", "listener 3"])
        #expect(watched.value == 3)
    }

    @Test("debug prints each value with its prefix, to the given output")
    func debugLog() {
        let lines = Recorder<String>()
        let node = MutableNode("a")
        let printed = node.debug("query", to: { lines.record($0) })
        node.value = "ab"
        #expect(lines.values == ["query: value a", "query: value ab"])
        #expect(printed.value == "ab")
        let plain = Recorder<String>()
        let unprefixed = MutableNode(5).debug(to: { plain.record($0) })
        #expect(plain.values == ["value 5"])
        _ = unprefixed
    }

    @Test("a listener token says it is one, on which node type, and whether it listens")
    func listenerDescription() {
        let node = MutableNode(1)
        let bag = CancelBag()
        let token = node.listened(by: bag).withBlock { _ in }
        #expect("\(token)" == "Listener(Node<Int>, listening)")
        #expect("\(bag)" == "CancelBag(1 entry, active)")
        token.cancel()
        #expect("\(token)" == "Listener(Node<Int>, cancelled)")
    }
}
