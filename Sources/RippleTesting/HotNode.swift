import RippleCore
import RippleNodes

extension TestScheduler {
    /// A node source whose value is set to each recorded value at its virtual time, from now on.
    ///
    /// Nodes are hot by nature: a node holds its value whether anybody listens and has no moment of subscription a
    /// cold sequence could start from, so there is no cold node source; a listener attached later hears the current
    /// value first, as with any node. Nodes never complete or fail: a `.completed` or `.failed` event is a programmer
    /// error. The scheduled values hold the node weakly, so a test that drops it can still check it is freed.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let input = scheduler.hotNode([.value(.seconds(1), "h"), .value(.seconds(2), "he")])
    /// let recorder = scheduler.start { input.debounce(.seconds(5), on: scheduler) }
    /// ```
    public func hotNode<Value: Sendable>(_ events: [Recorded<Value>], initial: Value? = nil) -> Node<Value> {
        let node = MutableNode<Value>()
        node.value = initial
        for recorded in events {
            guard let value = recorded.value else {
                programmerErrorInTesting("TestScheduler.hotNode(_:initial:) got \(recorded): nodes never complete "
                                             + "or fail, record values only")
            }
            schedule(after: recorded.time - now) { [weak node] in node?.value = value }
        }
        return node
    }
}
