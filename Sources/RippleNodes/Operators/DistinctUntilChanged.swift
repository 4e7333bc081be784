/// Drops a value equal to the downstream node's current value.
///
/// Its hop runs through a push thunk built where `Value` is concrete (as `map`'s does): the comparison and the push
/// are specialised, with no vtable call, no edge-lock read of `to` and no weak load per value (KairoAvoidable, where
/// every update ends in one: 2,420 → see BENCHMARKS.md).
@usableFromInline @_fixed_layout
final class DistinctTransform<Value: Sendable & Equatable>: Transform<Value, Value>, @unchecked Sendable {
    @inlinable
    override init() {
        super.init()
        push = { _, target, value, senders, context in
            // `currentValue`, not `value`: a public read would register the node with Observation and make it pay
            // willSet/didSet on every settle (see `NodeObservation.swift`). The caller keeps `target` alive
            // (`Node.push` holds it retained for the hop).
            let isRepeat = target._withUnsafeGuaranteedRef { object in
                unsafeDowncast(object, to: Node<Value>.self).currentValue == value
            }
            if isRepeat { return }
            Transform<Value, Value>.emit(value, into: target, senders: senders, context: context)
        }
    }

    @usableFromInline
    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        nextThroughPush(value, senders: senders, context: context)
    }
}

extension Node where Value: Equatable {
    /// A node that skips values equal to the one it already holds.
    @inlinable
    public final func distinctUntilChanged() -> Node<Value> {
        derive("distinctUntilChanged", DistinctTransform())
    }
}
