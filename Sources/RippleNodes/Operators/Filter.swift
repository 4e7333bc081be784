/// Passes only the values a predicate accepts; the others leave the downstream node unchanged.
@usableFromInline @_fixed_layout
final class FilterTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    @usableFromInline let isIncluded: @Sendable (Value) -> Bool

    @inlinable
    init(_ isIncluded: @escaping @Sendable (Value) -> Bool) {
        self.isIncluded = isIncluded
        super.init()
        // The hop runs specialised in the caller's module, without the vtable. `isIncluded` is captured rather than
        // read from the transform: a captured closure is borrowed, a stored one is retained and released per value.
        push = { _, target, value, senders, context in
            if isIncluded(value) {
                Transform<Value, Value>.emit(value, into: target, senders: senders, context: context)
            }
        }
    }

    @usableFromInline
    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        if isIncluded(value) { emit(value, senders: senders, context: context) }
    }
}

extension Node {
    /// A node receiving only the values `isIncluded` accepts.
    // Always inlined (see `map`).
    @inlinable @inline(__always)
    public final func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Node<Value> {
        derive("filter", FilterTransform(isIncluded))
    }
}

extension Node where Value: Equatable {
    /// A node receiving every value except those equal to `ignored` (nil equals nil).
    @inlinable
    public final func ignore(_ ignored: Value) -> Node<Value> {
        derive("ignore", FilterTransform { $0 != ignored })
    }

    /// A node receiving only values equal to `selected` (nil equals nil).
    @inlinable
    public final func select(_ selected: Value) -> Node<Value> {
        derive("select", FilterTransform { $0 == selected })
    }
}
