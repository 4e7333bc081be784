/// A node's listeners and downstream transforms as one immutable value: propagation takes it under the node lock
/// with a single retain (no allocation), and every change replaces it under that lock.
@usableFromInline
final class EdgeList<Value: Sendable>: @unchecked Sendable {
    // Immutable after init; the elements are themselves thread-safe.
    @usableFromInline let listeners: [ListenEdge<Value>]
    @usableFromInline let downstream: [DownstreamSlot<Value>]
    /// The same objects, unretained, in plain buffers: while propagation holds this list, `listeners` and
    /// `downstream` keep them alive, so reading them costs no retain/release per list, listener or hop.
    @usableFromInline let listenerRefs: UnsafeMutablePointer<Unmanaged<ListenEdge<Value>>>
    @usableFromInline let listenerCount: Int
    @usableFromInline let downstreamRefs: UnsafeMutablePointer<Unmanaged<DownstreamSlot<Value>>>
    @usableFromInline let downstreamCount: Int

    init(listeners: [ListenEdge<Value>], downstream: [DownstreamSlot<Value>]) {
        self.listeners = listeners
        self.downstream = downstream
        listenerCount = listeners.count
        listenerRefs = .allocate(capacity: max(listeners.count, 1))
        listenerRefs.initialize(from: listeners.map { Unmanaged.passUnretained($0) }, count: listeners.count)
        downstreamCount = downstream.count
        downstreamRefs = .allocate(capacity: max(downstream.count, 1))
        downstreamRefs.initialize(from: downstream.map { Unmanaged.passUnretained($0) }, count: downstream.count)
    }

    deinit {
        listenerRefs.deallocate()
        downstreamRefs.deallocate()
    }

    static var empty: EdgeList { EdgeList(listeners: [], downstream: []) }

    @usableFromInline
    func containsDownstream(_ slot: DownstreamSlot<Value>) -> Bool {
        downstream.contains { $0 === slot }
    }
}

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

    init(edge: any DownstreamEdge, target: AnyObject, push: @escaping PushThunk<Input>) {
        self.edge = edge
        edgeRef = Unmanaged.passUnretained(edge as AnyObject)
        anchor = TargetAnchor(target)
        self.target = anchor.ref
        self.push = push
    }
}
