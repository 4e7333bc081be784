/// How a node pushes a value along one downstream transform: a thunk created where the transform's types are
/// concrete (an `@inlinable` initialiser), so the whole hop runs specialised in the client module.
@usableFromInline
typealias PushThunk<Input> = @Sendable (_ edge: Unmanaged<AnyObject>, _ target: Unmanaged<AnyObject>, Input,
                                        SenderList, (any Sendable)?) -> Void

/// One downstream transform in a node's list: the edge (held strongly), its `to` node (not owned, as the transform
/// holds it) and its push thunk. A transform whose `to` changes gets a new slot, so a slot never changes and
/// propagation reads `to` without the edge's lock.
@usableFromInline
final class DownstreamSlot<Input: Sendable>: @unchecked Sendable {
    // Immutable after init; `edge` is a thread-safe transform and `push` a @Sendable thunk.
    @usableFromInline let edge: any DownstreamEdge
    /// `edge`, unretained (`edge` keeps it alive), for the push thunk.
    @usableFromInline let edgeRef: Unmanaged<AnyObject>
    /// `to`, not owned (see `TargetRef`); `anchor` keeps `target` valid.
    @usableFromInline let target: TargetRef
    let anchor: TargetAnchor
    @usableFromInline let push: PushThunk<Input>
    /// Whether the edge closed a cycle when it was linked (see `Ranks.swift`).
    let isBackEdge: Bool
    /// Where the node's ``EdgeList`` holds this slot, for an O(1) unlink; guarded by the node's lock.
    var listIndex = -1

    init(edge: any DownstreamEdge, target: AnyObject, push: @escaping PushThunk<Input>, isBackEdge: Bool) {
        self.isBackEdge = isBackEdge
        self.edge = edge
        edgeRef = Unmanaged.passUnretained(edge as AnyObject)
        anchor = TargetAnchor(target)
        self.target = anchor.ref
        self.push = push
    }
}
