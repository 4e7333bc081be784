import RippleCore

/// The branches of a `switch`/`switchMap`: ask for one key's node with ``case(_:)``, for unkeyed values with
/// ``default``.
///
/// A case node is linked to the keyed stream like any downstream node, so one created later starts as EasyReact's
/// does: with the stream's current value if that value has its key, empty otherwise (even if its key was seen
/// before another key arrived).
public final class SwitchedNodes<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The keyed stream every case node follows; it holds the upstream alive.
    let source: Node<Keyed<Key, Value>>

    init<Upstream: Sendable>(upstream: Node<Upstream>, name: String,
                             split: @escaping @Sendable (Upstream) -> (Key?, Value)) {
        let source = MutableNode<Keyed<Key, Value>>(storage: nil, mutable: false)
        source.name = name
        self.source = source
        let transform = SplitTransform(split: split)
        transform.name = name
        source.connect(upstream, through: transform)
    }

    /// The node receiving the values whose key is `key`.
    public func `case`(_ key: Key) -> Node<Value> {
        branch(key, name: "case(\(key))")
    }

    /// The node receiving the values without a key (the split closure returned nil).
    public var `default`: Node<Value> {
        branch(nil, name: "default")
    }

    private func branch(_ key: Key?, name: String) -> Node<Value> {
        let node = MutableNode<Value>(storage: nil, mutable: false)
        node.name = name
        let transform = CaseTransform<Key, Value>(key: key)
        transform.name = name
        node.connect(source, through: transform)
        return node
    }
}

/// A value with the key it was switched on.
public struct Keyed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let key: Key?
    public let value: Value
}

/// Computes the key (and the value) of each upstream value.
final class SplitTransform<Input: Sendable, Key: Hashable & Sendable, Value: Sendable>:
    Transform<Input, Keyed<Key, Value>>, @unchecked Sendable
{
    let split: @Sendable (Input) -> (Key?, Value)

    init(split: @escaping @Sendable (Input) -> (Key?, Value)) {
        self.split = split
    }

    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        let (key, output) = split(value)
        emit(Keyed(key: key, value: output), senders: senders, context: context)
    }
}

/// Passes the values of one key.
final class CaseTransform<Key: Hashable & Sendable, Value: Sendable>: Transform<Keyed<Key, Value>, Value>,
    @unchecked Sendable
{
    let key: Key?

    init(key: Key?) {
        self.key = key
    }

    override func next(_ value: Keyed<Key, Value>, senders: SenderList, context: (any Sendable)?) {
        if value.key == key { emit(value.value, senders: senders, context: context) }
    }
}

extension Node {
    /// Splits this node by the key `keyOf` gives each value (nil: the ``SwitchedNodes/default`` branch).
    public final func `switch`<Key: Hashable & Sendable>(
        _ keyOf: @escaping @Sendable (Value) -> Key?
    ) -> SwitchedNodes<Key, Value> {
        SwitchedNodes(upstream: self, name: "switch") { (keyOf($0), $0) }
    }

    /// Splits this node by key and changes each value on the way (`switchMap:`).
    public final func switchMap<Key: Hashable & Sendable, Output: Sendable>(
        _ split: @escaping @Sendable (Value) -> (Key?, Output)
    ) -> SwitchedNodes<Key, Output> {
        SwitchedNodes(upstream: self, name: "switchMap", split: split)
    }
}
