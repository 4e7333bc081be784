/// Drops a value equal to the downstream node's current value.
final class DistinctTransform<Value: Sendable & Equatable>: Transform<Value, Value>, @unchecked Sendable {
    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        // `currentValue`, not `value`: a public read would register the node with Observation and make it pay
        // willSet/didSet on every settle (see `NodeObservation.swift`).
        if let current = to?.currentValue, current == value { return }
        emit(value, senders: senders, context: context)
    }
}

extension Node where Value: Equatable {
    /// A node that skips values equal to the one it already holds.
    public final func distinctUntilChanged() -> Node<Value> {
        derive("distinctUntilChanged", DistinctTransform())
    }
}
