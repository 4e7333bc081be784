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
    // Immutable after init; the edge is a thread-safe transform and `push` a @Sendable thunk.
    /// The edge, held strongly (retained in `init`, released in `deinit`): as `Unmanaged` rather than a stored
    /// `any DownstreamEdge`, which took 16 more bytes per slot for what only graph queries read.
    @usableFromInline let edgeRef: Unmanaged<AnyObject>
    /// `to`, not owned (see `TargetRef`).
    @usableFromInline let target: TargetRef
    @usableFromInline let push: PushThunk<Input>
    /// Whether the edge closed a cycle when it was linked (see `Ranks.swift`).
    let isBackEdge: Bool
    /// Where the node's ``EdgeList`` holds this slot, for an O(1) unlink; guarded by the node's lock.
    var listIndex = -1

    init(edge: any DownstreamEdge, target: AnyObject, serial: UInt64, push: @escaping PushThunk<Input>,
         isBackEdge: Bool) {
        self.isBackEdge = isBackEdge
        edgeRef = Unmanaged.passRetained(edge as AnyObject)
        self.target = TargetRef(target, serial: serial)
        self.push = push
    }

    deinit {
        edgeRef.release()
    }

    /// The edge, for graph queries.
    var edge: any DownstreamEdge {
        // Every slot is made with a `DownstreamEdge` (see `init`).
        edgeRef.takeUnretainedValue() as! any DownstreamEdge
    }
}
