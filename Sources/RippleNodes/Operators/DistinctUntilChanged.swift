/// Drops a value equal to the downstream node's current value.
final class DistinctTransform<Value: Sendable & Equatable>: Transform<Value, Value>, @unchecked Sendable {
    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        if let current = to?.value, current == value { return }
        emit(value, senders: senders, context: context)
    }
}

extension Node where Value: Equatable {
    /// A node that skips values equal to the one it already holds.
    public final func distinctUntilChanged() -> Node<Value> {
        derive("distinctUntilChanged", DistinctTransform())
    }
}
