import RippleCore

// Fused operator nodes: `map` and `filter` as one object each, the node holding its own operator.
//
// A derived node linked by a transform is three objects (the node, the transform, the slot in the upstream's list:
// 460 resident bytes for a `map`). A fused node is one (a 208-byte allocation): it holds its upstream and a push
// thunk built where the operator's types are concrete (capturing the operator's closure), and it is itself the
// entry in its upstream's edge list.
//
// Invariants:
// - The upstream's list holds the fused node without a count (a node owns its upstream, so the reverse would be a
//   cycle), as a tagged entry (see `EdgeEntry.swift`); propagation upgrades it with `swift_tryRetain`, as it does a
//   slot's target. The fused node's deinit removes the entry under the upstream's lock before the memory can go.
// - `inletSource` is set at init and cleared only when the operator is *materialized*: a graph query asks for the
//   transforms, so the fused operator becomes a plain transform, in the same place of both nodes' lists, and the node
//   is an ordinary node from then on. Materializing holds this node's lock, then the upstream's: no code takes two
//   node locks the other way round, and fused inlets never form a cycle (each points to an older node).
// - A fused node has no upstream edge for its operator (`upstream` holds only what was linked into it later); its
//   inlet counts as one upstream wherever upstreams are counted (`hasUpstream`, `severalUpstreams`).
// - No stored property of a fused node, or of a node, depends on the output type (a node's value is raw bytes): the
//   upstream, which knows only the input type, reads `inletPush` through a `FusedNode<Input, Input>` view.
// - Used only where the runtime's `swift_tryRetain` is found; elsewhere `map` and `filter` link a transform.

/// A fused node's operator: applies it to the value (of the upstream's type) at `value` and pushes the result into
/// `target` (the fused node, or, once materialized, its transform's `to`). Built where the operator's types are
/// concrete, so the hop runs specialised; it captures the operator's closure.
@usableFromInline
typealias FusedPushThunk = @Sendable (_ target: Unmanaged<AnyObject>, _ value: UnsafeRawPointer, SenderList,
                                      (any Sendable)?) -> Void

/// Whether operators may fuse: the propagation upgrades fused entries with the runtime's `swift_tryRetain`.
let operatorsFuse = runtimeTryRetain != nil

/// A node together with the operator feeding it from `Input` values. Subclasses build the operator's push thunk
/// (``inletPush``).
@usableFromInline @_fixed_layout
class FusedNode<Input: Sendable, Output: Sendable>: MutableNode<Output>, @unchecked Sendable {
    /// The upstream, retained (by hand, so that the deinit hands its reference to the release drain without a
    /// retain and release pair of its own: MapFilterCreating 30,158 → 28,010 instructions); nil once materialized
    /// (the transform holds it then). Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var inletSource: Unmanaged<Node<Input>>?
    /// The operator (see ``FusedPushThunk``). A `let`, so a hop calls it without retaining it.
    @usableFromInline final let inletPush: FusedPushThunk
    /// Where the upstream's edge list holds this node. Guarded by the upstream's lock.
    @usableFromInline @exclusivity(unchecked) final var inletIndex = -1

    @inlinable @inline(__always)
    init(source: Node<Input>, name: String, push: @escaping FusedPushThunk) {
        inletSource = .passRetained(source)
        inletPush = push
        super.init(storage: nil, mutable: false, fused: true)
        nameStorage = name
    }

    deinit {
        // Leaves the upstream's list, then lets go of the upstream through the release drain, so that dropping a
        // long chain does not recurse.
        guard let source = inletSource else { return }
        source._withUnsafeGuaranteedRef { $0.removeFusedDownstream(self, operation: inletPush) }
        ReleaseDrain.release(retained: source.toOpaque())
    }

    @usableFromInline
    override final func receiveFused(_ value: UnsafeRawPointer, senders: SenderList, context: (any Sendable)?) {
        inletPush(.passUnretained(self), value, senders, context)
    }

    @usableFromInline
    override final var fusedListIndex: Int {
        get { inletIndex }
        set { inletIndex = newValue }
    }

    /// Links this new node below its upstream, as linking a transform does: ranks it, enters it in the upstream's
    /// list and pushes the upstream's current value through the operator. Where operators cannot fuse, links it
    /// through the transform it would become when materialized instead.
    @usableFromInline
    final func linkFused() {
        let source = inletSource.unsafelyUnwrapped
        guard operatorsFuse else {
            inletSource = nil
            stopCountingAsFused()
            connect(source.takeUnretainedValue(), through: makeTransform())
            // The transform holds the upstream now.
            source.release()
            return
        }
        source._withUnsafeGuaranteedRef { $0.linkFused(self) }
    }

    /// The node no longer holds its operator (a transform feeds it now): it counts as a node only. Under `lock`,
    /// or before the node is shared.
    private func stopCountingAsFused() {
        hasFusedInlet = false
        fusedNodeCounter.decrement()
        nodeCounter.increment()
    }

    /// The plain transform this operator becomes, named after it.
    private func makeTransform() -> FusedOperatorTransform<Input, Output> {
        let transform = FusedOperatorTransform<Input, Output>(inletPush)
        transform.name = operatorName
        return transform
    }

    /// The operator's name, for the transform it becomes when materialized.
    var operatorName: String {
        programmerError("FusedNode.operatorName must be overridden")
    }

    override final func materializeFusedInlet() {
        lock.lock()
        // Held strongly for the rest of this call (the field's reference may go meanwhile).
        let source = inletSource?.takeUnretainedValue()
        lock.unlock()
        guard let source else { return }
        // Made and registered before it is shared: taking its edge lock under this node's lock (below) would invert
        // the transform lock order.
        let transform = makeTransform()
        let slot = transform.adoptFusedLink(from: source, to: self)
        lock.lock()
        guard inletSource?.toOpaque() == Unmanaged.passUnretained(source).toOpaque() else {
            // Another thread materialized it meanwhile.
            lock.unlock()
            return
        }
        source.removeFusedDownstream(self, operation: inletPush, replacement: .passUnretained(slot))
        upstream.prepend(transform)
        inletSource = nil
        stopCountingAsFused()
        updateSeveralUpstreams()
        lock.unlock()
        // The transform holds the upstream now; `source` keeps it alive until the end of this call.
        Unmanaged.passUnretained(source).release()
        extendLifetime(slot)
    }
}

/// What a fused operator becomes when materialized: a transform pushing through the operator's thunk, into
/// whatever `to` is (it may be re-pointed like any transform).
final class FusedOperatorTransform<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    init(_ operation: @escaping FusedPushThunk) {
        super.init()
        push = { _, target, value, senders, context in
            withUnsafePointer(to: value) { operation(target, $0, senders, context) }
        }
    }

    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        nextThroughPush(value, senders: senders, context: context)
    }
}
