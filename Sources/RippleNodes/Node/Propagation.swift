import DequeModule
import RippleCore
import Synchronization

/// Every thread's engine state. The key holds each thread's state until the thread exits.
@usableFromInline
let propagationStates = ThreadLocal<PropagationState>()

// The propagation engine, in one place: every value that moves through the graph passes through here.
//
// - Synchronous, depth-first: a node stores the value, calls its listeners in registration order, then pushes the
//   value along its downstream transforms, on the calling thread.
// - The sender list: each propagation carries the path of nodes it has passed. A transform never pushes into a node
//   already on that path, so rings settle after one lap and never overwrite the node where the change began.
// - Re-entrancy: a set on a node that is already propagating on this thread is queued (FIFO) and applied once the
//   thread's outermost propagation finishes, so every listener sees value N before any sees N+1. The same holds
//   for a push along an edge into a node still propagating further out on this thread (a listener set another node
//   that feeds back into it).
// - Threads: all the state below is per thread; nodes guard only their own value and edge lists.
// - Speed: the per-value path is `@inlinable`, so a client's `Node<Int>` runs it specialised (no generic metadata,
//   no witness calls); downstream hops go through push thunks built where the transform's types are concrete.

/// The per-thread state of the engine.
@usableFromInline
final class PropagationState {
    /// This thread's state. Returned unretained: the thread's key holds it until the thread exits, and callers
    /// keep it in `unowned(unsafe)` locals, so there is no retain/release per set.
    @usableFromInline
    static var current: Unmanaged<PropagationState> {
        propagationStates.unretained(orMake: PropagationState.init)
    }

    /// Every node propagating on this thread, outermost first. `path[base...]` is the current propagation's sender
    /// list; nested user sets start a fresh sender list above `base`, so they are not cut by an unrelated path.
    // Only this thread touches this object, so dynamic exclusivity checks (a thread-local lookup each) buy nothing.
    // A hand-managed buffer rather than an Array: no uniqueness check or capacity branch into generic code per hop.
    @usableFromInline @exclusivity(unchecked) var path: UnsafeMutablePointer<ObjectIdentifier>
    @usableFromInline @exclusivity(unchecked) var pathCount = 0
    @usableFromInline @exclusivity(unchecked) var pathCapacity = 32
    @usableFromInline @exclusivity(unchecked) var base = 0
    /// One bit per bucket (see `bit(of:)`) of every node pushed since the path was last empty. Every hop asks
    /// whether its target is on the path; a clear bit answers "no" without scanning it (the scan was ~10 % of a
    /// 12-operator chain, quadratic in its depth). Bits are not cleared on pop, only when the path empties: a stale
    /// bit merely costs the scan.
    @usableFromInline @exclusivity(unchecked) var pathBits: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var pending = Deque<() -> Void>()
    @exclusivity(unchecked) var draining = false
    /// No context, for sets without one (see `Node.startPropagation(_:checkMutable:)`).
    @usableFromInline let noContext: (any Sendable)? = nil

    @usableFromInline
    init() {
        path = .allocate(capacity: pathCapacity)
    }

    deinit {
        path.deallocate()
    }

    /// `id`'s bit in `pathBits`: the top 6 bits of the address times the golden ratio (Fibonacci hashing). Nodes of
    /// one size are allocated at a fixed stride, which a fold of low address bits maps onto few buckets; each false
    /// "maybe" costs a scan of the path, and the chain's cost then depended on where malloc put its nodes.
    @inlinable @inline(__always)
    static func bit(of id: ObjectIdentifier) -> UInt64 {
        let bits = UInt64(UInt(bitPattern: id))
        return 1 &<< ((bits &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// Whether `id` may be on the path: false proves it is not.
    @inlinable @inline(__always)
    func mayBeOnPath(_ id: ObjectIdentifier) -> Bool {
        pathBits & Self.bit(of: id) != 0
    }

    @inlinable @inline(__always)
    func push(_ id: ObjectIdentifier) {
        if pathCount == pathCapacity { growPath() }
        (path + pathCount).initialize(to: id)
        pathCount += 1
        pathBits |= Self.bit(of: id)
    }

    @inlinable @inline(__always)
    func pop() {
        pathCount -= 1
        if pathCount == 0 { pathBits = 0 }
    }

    @usableFromInline
    func growPath() {
        let grown = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: pathCapacity * 2)
        grown.moveInitialize(from: path, count: pathCount)
        path.deallocate()
        path = grown
        pathCapacity *= 2
    }

    @inlinable @inline(__always)
    func isPropagating(_ id: ObjectIdentifier) -> Bool {
        if !mayBeOnPath(id) { return false }
        var index = pathCount - 1
        while index >= 0 {
            if path[index] == id { return true }
            index -= 1
        }
        return false
    }

    @usableFromInline
    enum Position {
        case notPropagating
        case onSenderList
        case propagatingElsewhere
    }

    /// Where `id` is on this thread's path, in one scan from the innermost node out.
    @inlinable @inline(__always)
    func position(of id: ObjectIdentifier) -> Position {
        if !mayBeOnPath(id) { return .notPropagating }
        var index = pathCount - 1
        while index >= 0 {
            if path[index] == id { return index >= base ? .onSenderList : .propagatingElsewhere }
            index -= 1
        }
        return .notPropagating
    }

    @inline(__always)
    func senderListContains(_ id: ObjectIdentifier) -> Bool {
        if !mayBeOnPath(id) { return false }
        var index = base
        while index < pathCount {
            if path[index] == id { return true }
            index += 1
        }
        return false
    }

    /// Runs `body` as a new propagation whose sender list starts as `senders`.
    @inline(__always)
    func withFreshSenderList(_ senders: ArraySlice<ObjectIdentifier>, _ body: () -> Void) {
        let savedBase = base
        let savedCount = pathCount
        base = savedCount
        for id in senders { push(id) }
        body()
        pathCount = savedCount
        if pathCount == 0 { pathBits = 0 }
        base = savedBase
        drainIfIdle()
    }

    @inlinable @inline(__always)
    func drainIfIdle() {
        if pathCount == 0 && !pending.isEmpty { drainPending() }
    }

    @usableFromInline
    func drainPending() {
        guard pathCount == 0, !draining else { return }
        draining = true
        while let job = pending.popFirst() { job() }
        draining = false
    }
}

/// The nodes a value has passed on its way here (EasyReact's `EZSenderList`).
///
/// A custom ``Transform`` receives it in ``Transform/next(_:senders:context:)`` and hands it back to
/// ``Transform/emit(_:senders:context:)``; to carry a value across a scheduler, keep ``snapshot()`` and emit with
/// ``Transform/emit(_:after:context:)``. A sender list is only valid during the call that received it, on that
/// thread: it refers to the thread's propagation state without retaining it.
@frozen
public struct SenderList {
    // The thread's state outlives every propagation on that thread (see `PropagationState.current`). Held as
    // `Unmanaged` and borrowed on the hot path: an `unowned(unsafe)` reference is retained around each use.
    @usableFromInline let stateRef: Unmanaged<PropagationState>

    @inlinable
    init(state: PropagationState) {
        stateRef = .passUnretained(state)
    }

    @usableFromInline
    var state: PropagationState { stateRef.takeUnretainedValue() }

    /// Whether `node` is on the path of this propagation.
    public func contains(_ node: some GraphNode) -> Bool {
        state.senderListContains(ObjectIdentifier(node))
    }

    /// The path, kept for a later, asynchronous emission.
    public func snapshot() -> SenderSnapshot {
        SenderSnapshot(ids: Array(UnsafeBufferPointer(start: state.path + state.base,
                                                      count: state.pathCount - state.base)))
    }
}

/// A sender list kept across a scheduler hop (`deliver(on:)`, `delay`, `throttle`), so rings through an
/// asynchronous edge still stop after one lap.
public struct SenderSnapshot: Sendable {
    let ids: [ObjectIdentifier]
    static let empty = SenderSnapshot(ids: [])
}

extension Node {
    /// A user set (`value =`, `set(_:context:)`, `clean()`): starts a fresh propagation, or queues behind the current
    /// one when this node is already propagating on this thread. `checkMutable` makes it the programmer error of a
    /// set on a read-only node.
    @inlinable
    final func startPropagation(_ value: Value?, context: (any Sendable)?, checkMutable: Bool = false) {
        // The thread's key keeps the state alive: no retain for this propagation.
        threadStates.unretained(orMake: PropagationState.init)._withUnsafeGuaranteedRef { state in
            startPropagation(value, context: context, checkMutable: checkMutable, state: state)
        }
    }

    /// A set without a context (`value =`): the nil context is borrowed from the thread's state, since a `nil`
    /// literal of `(any Sendable)?` is destroyed through value witnesses after the call (~60 instructions a set).
    @inlinable
    final func startPropagation(_ value: Value?, checkMutable: Bool) {
        threadStates.unretained(orMake: PropagationState.init)._withUnsafeGuaranteedRef { state in
            startPropagation(value, context: state.noContext, checkMutable: checkMutable, state: state)
        }
    }

    @inlinable @inline(__always)
    final func startPropagation(_ value: Value?, context: (any Sendable)?, checkMutable: Bool,
                                state: PropagationState) {
        if state.isPropagating(ObjectIdentifier(self)) {
            queueSet(value, context: context, checkMutable: checkMutable, state: state)
            return
        }
        guard let value else {
            if checkMutable { requireMutable() }
            cleanStorage()
            return
        }
        let savedBase = state.base
        state.base = state.pathCount
        receive(value, context: context, state: state, checkMutable: checkMutable)
        state.base = savedBase
        state.drainIfIdle()
    }

    @usableFromInline
    final func queueSet(_ value: Value?, context: (any Sendable)?, checkMutable: Bool, state: PropagationState) {
        if checkMutable { requireMutable() }
        state.pending.append { [self] in self.startPropagation(value, context: context) }
    }

    /// Resumes a propagation that crossed a scheduler: the sender list is the one kept before the hop.
    final func resumePropagation(_ value: Value, context: (any Sendable)?, senders: SenderSnapshot) {
        let state = PropagationState.current.takeUnretainedValue()
        state.withFreshSenderList(senders.ids[...]) {
            if !state.senderListContains(ObjectIdentifier(self)) {
                receive(value, context: context, state: state)
            }
        }
    }

    /// Stores `value`, tells listeners, then pushes downstream. The heart of the engine.
    @inlinable
    final func receive(_ value: Value, context: (any Sendable)?, state: PropagationState,
                       checkMutable: Bool = false) {
        // The old value leaves through `previous` and is released after unlocking: it may be a node whose deinit
        // takes locks of its own.
        lock.lock()
        if checkMutable && !mutableFlag {
            lock.unlock()
            readOnlySetFailed()
        }
        var previous = value
        _ = exchangeValue(&previous)
        // One immutable snapshot of both lists, neither retained nor copied (see `EdgeReaders.swift`). It keeps
        // every listener and slot alive until the end, so the loops below read them unretained.
        let snapshot = beginReadingEdges()
        let version = edgesVersion.load(ordering: .relaxed)
        // A lone edge (see `NodeEdges`) is read through this local, as a one-element list.
        var lone = snapshot.object
        withUnsafeMutablePointer(to: &lone) { lonePointer in
            let (listeners, listenerCount, downstreamCount) = snapshot.layout(lone: lonePointer)
            // The first listener's flag is read under this lock already. Later ones may have been cancelled by user
            // code run since (a listener may cancel another): while `edgesVersion` is unchanged none was;
            // otherwise the flag is re-read under the lock.
            var live = listenerCount > 0 && listeners[0]._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: ListenEdge<Value>.self).live
            }
            lock.unlock()
            extendLifetime(previous)
            state.push(ObjectIdentifier(self))
            var index = 0
            while index < listenerCount {
                listeners[index]._withUnsafeGuaranteedRef { object in
                    let listener = unsafeDowncast(object, to: ListenEdge<Value>.self)
                    if index > 0 && edgesVersion.load(ordering: .acquiring) != version {
                        lock.lock()
                        live = listener.live
                        lock.unlock()
                    }
                    if live { listener.action(value, context) }
                }
                index += 1
            }
            let downstream = listeners + listenerCount
            if downstreamCount > 0 {
                let senders = SenderList(state: state)
                index = 0
                while index < downstreamCount {
                    downstream[index]._withUnsafeGuaranteedRef { object in
                        let slot = unsafeDowncast(object, to: DownstreamSlot<Value>.self)
                        // Once user code has run (a listener, an earlier hop), the transform may have been
                        // unlinked: unless `edgesVersion` is unchanged, check it against the current edges, under
                        // this node's lock. Nothing ran before the first hop of a node without listeners, the
                        // common case in a chain.
                        if (index == 0 && listenerCount == 0) || edgesVersion.load(ordering: .acquiring) == version
                            || isStillDownstream(slot, since: snapshot.object),
                           let target = slot.target.retained() {
                            slot.push(slot.edgeRef, target, value, senders, context)
                            target.release()
                        }
                    }
                    index += 1
                }
            }
        }
        state.pop()
        finishReadingEdges()
    }

    /// Whether `edge` is still in this node's downstream list; `snapshot` is the list propagation started with.
    @inlinable
    final func isStillDownstream(_ slot: DownstreamSlot<Value>, since snapshot: Unmanaged<AnyObject>) -> Bool {
        lock.lock()
        let linked = edges.object === snapshot.takeUnretainedValue() || edges.containsDownstream(slot)
        lock.unlock()
        return linked
    }

    /// Pushes this node's current value (if any) along one transform: what linking does.
    final func pushCurrentValue(along edge: Transform<Value, some Sendable>) {
        // Through a stack slot rather than `value` (a `Value?`, a metadata look-up here, where `Value` is generic).
        withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            lock.lock()
            let held = copyStoredValue(to: slot)
            lock.unlock()
            if held { pushValue(slot.move(), along: edge) }
        }
    }

    private func pushValue(_ current: Value, along edge: Transform<Value, some Sendable>) {
        let state = PropagationState.current.takeUnretainedValue()
        state.withFreshSenderList([]) {
            state.push(ObjectIdentifier(self))
            edge.next(current, senders: SenderList(state: state), context: nil)
            state.pop()
        }
    }

    /// ``pushCurrentValue(along:)`` for a transform just linked to `target`, which the caller holds: through the
    /// transform's push thunk, built where its types were concrete, rather than `next`, reached here through the
    /// vtable's unspecialised entry (the whole hop into `target` then ran generic).
    final func pushCurrentValue<Output: Sendable>(along edge: Transform<Value, Output>, into target: Node<Output>) {
        withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            lock.lock()
            let held = copyStoredValue(to: slot)
            lock.unlock()
            guard held else { return }
            let current = slot.move()
            let state = PropagationState.current.takeUnretainedValue()
            state.withFreshSenderList([]) {
                state.push(ObjectIdentifier(self))
                edge.push(.passUnretained(edge), .passUnretained(target), current, SenderList(state: state),
                          state.noContext)
                state.pop()
            }
        }
    }
}
