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

/// A `map` node holding its operator (see `FusedNode.swift`).
@usableFromInline @_fixed_layout
final class FusedMapNode<Input: Sendable, Output: Sendable>: FusedNode<Input, Output>, @unchecked Sendable {
    @inlinable @inline(__always)
    init(source: Node<Input>, body: @escaping @Sendable (Input) -> Output) {
        // Built here, where `Input` and `Output` are concrete in the caller's module. `body` is captured at its own
        // type: stored in this generic class, it would be called through a re-abstraction thunk (~10 instructions a
        // hop), and a closure literal captured here is folded into the thunk (no context at all).
        super.init(source: source, name: "map") { target, value, senders, context in
            // The pointer is to an `Input` the upstream holds for the call (`withUnsafePointer(to:)`).
            emitValue(body(value.load(as: Input.self)), into: target, senders: senders, context: context)
        }
    }

    override var operatorName: String { "map" }
}

extension Node {
    /// A node holding `transform` applied to every non-empty value; for an optional `Output`, nil is a value.
    // Always inlined, so that a closure literal folds into the operator's thunk: no context to allocate, and the hop
    // runs the closure inline (not inlined, MapFilterCreating cost ~3,600 instructions more, a malloc per operator).
    @inlinable @inline(__always)
    public final func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Node<Output> {
        let node = FusedMapNode(source: self, body: transform)
        node.linkFused()
        return node
    }

    /// A node receiving `replacement` every time this node gets a value (`mapReplace:`). `replacement` is held by
    /// the transform.
    @inlinable
    public final func mapReplace<Output: Sendable>(_ replacement: Output) -> Node<Output> {
        derive("mapReplace", MapTransform { _ in replacement })
    }
}
