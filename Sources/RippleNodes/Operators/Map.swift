/// Applies a closure to every value (`EZRMapTransform`).
@usableFromInline @_fixed_layout
final class MapTransform<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    @usableFromInline let body: @Sendable (Input) -> Output

    @inlinable
    init(_ body: @escaping @Sendable (Input) -> Output) {
        self.body = body
        super.init()
        // The hop runs specialised in the caller's module, without the vtable. `body` is captured rather than read
        // from the transform: a captured closure is borrowed, a stored one is retained and released per value.
        push = { _, target, value, senders, context in
            Transform<Input, Output>.emit(body(value), into: target, senders: senders, context: context)
        }
    }

    @usableFromInline
    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        emit(body(value), senders: senders, context: context)
    }
}

extension Node {
    /// A node holding `transform` applied to every non-empty value; for an optional `Output`, nil is a value.
    // Always inlined, so that a closure literal folds into the transform's push thunk: no context to allocate, and
    // the hop runs the closure inline.
    @inlinable @inline(__always)
    public final func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Node<Output> {
        derive("map", MapTransform(transform))
    }

    /// A node receiving `replacement` every time this node gets a value (`mapReplace:`). `replacement` is held by
    /// the transform.
    @inlinable
    public final func mapReplace<Output: Sendable>(_ replacement: Output) -> Node<Output> {
        derive("mapReplace", MapTransform { _ in replacement })
    }
}
