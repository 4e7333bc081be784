/// A node's listeners and downstream transforms as one immutable value: propagation takes it under the node lock
/// with a single retain (no allocation), and every change replaces it under that lock.
@usableFromInline
final class EdgeList<Value: Sendable>: @unchecked Sendable {
    // Immutable after init; the elements are themselves thread-safe.
    @usableFromInline let listeners: [ListenEdge<Value>]
    @usableFromInline let downstream: [DownstreamSlot<Value>]

    init(listeners: [ListenEdge<Value>], downstream: [DownstreamSlot<Value>]) {
        self.listeners = listeners
        self.downstream = downstream
    }

    static var empty: EdgeList { EdgeList(listeners: [], downstream: []) }
}

/// How a node pushes a value along one downstream transform: a thunk created where the transform's types are
/// concrete (an `@inlinable` initialiser), so the whole hop runs specialised in the client module.
@usableFromInline
typealias PushThunk<Input> = @Sendable (AnyObject, Input, SenderList, (any Sendable)?) -> Void

/// One downstream transform in a node's list: the edge (held strongly) and its push thunk.
@usableFromInline
struct DownstreamSlot<Input: Sendable>: @unchecked Sendable {
    // `edge` is a thread-safe transform; `push` is a non-capturing @Sendable thunk.
    @usableFromInline let edge: any DownstreamEdge
    @usableFromInline let push: PushThunk<Input>

    init(edge: any DownstreamEdge, push: @escaping PushThunk<Input>) {
        self.edge = edge
        self.push = push
    }
}
