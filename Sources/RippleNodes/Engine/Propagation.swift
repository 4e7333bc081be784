import DequeModule
import RippleCore
import Synchronization

// How one node settles: the per-value path every set and every hop runs.
//
// Invariants:
// - Everything here runs while the thread holds the graph's domain (see `Domain.swift`): no other transaction of
//   the graph interleaves. A node's own lock is held only to store the value, stamp its mark (see `CycleRule.swift`)
//   and take its edge lists (readers outside the graph, such as `value`, take it too).
// - A node's listener calls are collected in settle order (`collectDelivery`) and run after the commit, outside
//   every lock; downstream transforms run at once, in link order.
// - A user set opens a transaction (it takes the node's domain), is collected by the open `Node.batch`, joins the
//   batch being applied, or, from a transform, waits as a job.
// - A push from an edge settles a node with one upstream at once (no other path can reach it, so it cannot glitch:
//   a straight chain needs no queue) unless the thread is `directDepthLimit` hops deep; a node with several
//   upstreams waits in the rank queue, unless nothing else can change in the frame any more (no sibling edge left
//   to push along, nothing waiting): then it too settles at once.
// - Speed: the per-value path is `@inlinable`, so a client's `Node<Int>` runs it specialised (no generic metadata,
//   no witness calls); downstream hops go through push thunks built where the transform's types are concrete, and
//   waiting nodes settle through a thunk built the same way.

extension Node {
    /// This thread's engine state, unretained: the thread's key keeps it alive.
    @inlinable @inline(__always)
    final var threadState: Unmanaged<PropagationState> {
        threadStatesRef._withUnsafeGuaranteedRef { $0.unretained(orMake: PropagationState.init) }
    }

    /// A user set (`value =`, `set(_:context:)`, `clean()`). `checkMutable` makes it the programmer error of a set
    /// on a read-only node.
    @inlinable
    final func startPropagation(_ value: Value?, context: (any Sendable)?, checkMutable: Bool = false) {
        threadState._withUnsafeGuaranteedRef { state in
            startPropagation(value, context: context, checkMutable: checkMutable, state: state)
        }
    }

    /// A set without a context (`value =`): the nil context is borrowed from the thread's state, since a `nil`
    /// literal of `(any Sendable)?` is destroyed through value witnesses after the call (~60 instructions a set).
    @inlinable
    final func startPropagation(_ value: Value?, checkMutable: Bool) {
        threadState._withUnsafeGuaranteedRef { state in
            startPropagation(value, context: state.noContext, checkMutable: checkMutable, state: state)
        }
    }

    @inlinable @inline(__always)
    final func startPropagation(_ value: Value?, context: (any Sendable)?, checkMutable: Bool,
                                state: PropagationState) {
        guard let value else {
            if checkMutable { requireMutable() }
            cleanStorage()
            return
        }
        if state.held == nil && state.batchDepth == 0 {
            // The common case: a set with no transaction running and no batch open on this thread. It takes the
            // node's domain (see `Domain.swift`) and settles the graph under it.
            let root = lockOwnDomain()
            state.held = root
            state.beginOutermost()
            lock.lock()
            if checkMutable && !mutableFlag {
                lock.unlock()
                state.frame = 0
                state.held = nil
                root.unlock()
                readOnlySetFailed()
            }
            settleStoring(value, context: context, state: state)
            state.finishOutermost()
            state.commit(root)
        } else {
            setInOpenFrame(value, context: context, checkMutable: checkMutable, state: state)
        }
    }

    /// A set while this thread runs a transaction (from a transform, or a batch being applied) or inside
    /// `Node.batch`: collected by the batch, joined to the batch being applied, or a later transaction.
    @inlinable
    final func setInOpenFrame(_ value: Value, context: (any Sendable)?, checkMutable: Bool, state: PropagationState) {
        if checkMutable { requireMutable() }
        if state.batchDepth > 0 {
            state.collect(self) { [self] state in self.joinBatch(value, context: context, state: state) }
        } else if state.collecting {
            joinBatch(value, context: context, state: state)
        } else {
            // From a transform: the domain is held, the set waits for the next transaction.
            queueSet(value, context: context, state: state)
        }
    }

    /// Joins the batch being applied: stored now, settled when the batch's frame closes. Set twice, the node keeps
    /// its last value.
    @usableFromInline
    final func joinBatch(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        lock.lock()
        let markFrame = mark & ~3
        if markFrame != state.frame && markFrame != 0 && state.isOuter(markFrame) {
            lock.unlock()
            queueSet(value, context: context, state: state)
            return
        }
        var previous = value
        _ = exchangeValue(&previous)
        let waiting = markFrame == state.frame
        mark = state.frame | NodeMark.origin
        let rank = Int(self.rank)
        lock.unlock()
        extendLifetime(previous)
        if !waiting { enqueue(rank: rank, context: context, state: state) }
    }

    @usableFromInline
    final func queueSet(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        state.queueJob { [self] in self.startPropagation(value, context: context) }
    }

    /// Puts this node in the running frame's rank queue (`rank`), or on its deferred stack (nil).
    @inlinable
    final func enqueue(rank: Int?, context: (any Sendable)?, state: PropagationState) {
        state.enqueue(node: Unmanaged.passRetained(self), serial: serial, rank: rank,
                      context: context) { node, state, context in
            // Borrowed: the entry holds the node. `takeUnretainedValue()` retained and released it, through the
            // side table's slow path (~170 instructions a waiting node).
            node._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: Node<Value>.self).settlePending(context: context, state: state)
            }
        }
    }

    /// A value pushed along an edge, in the running frame. The heart of the engine.
    @inlinable
    final func receive(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        lock.lock()
        switch state.admit(mark: mark, id: ObjectIdentifier(self)) {
        case .fresh:
            break
        case .overwrite:
            var previous = value
            _ = exchangeValue(&previous)
            lock.unlock()
            extendLifetime(previous)
            return
        case .drop:
            lock.unlock()
            return
        case .later:
            lock.unlock()
            queueLater(value, context: context, state: state)
            return
        }
        let waits = severalUpstreams && state.othersMayChange
        if waits || state.path.count >= directDepthLimit {
            var previous = value
            _ = exchangeValue(&previous)
            mark = state.frame | NodeMark.pending
            let rank: Int? = waits ? Int(self.rank) : nil
            lock.unlock()
            extendLifetime(previous)
            enqueue(rank: rank, context: context, state: state)
            return
        }
        settleStoring(value, context: context, state: state, inline: true)
    }

    /// A push into a node a frame further out is still settling: the next transaction, continuing the sender list.
    @usableFromInline
    final func queueLater(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        let senders = SenderSnapshot(ids: state.snapshotIDs())
        // Held strongly until the job runs, at the end of this thread's outermost frame.
        state.queueJob { [self] in self.resumePropagation(value, context: context, senders: senders) }
    }

    /// Settles a node that waited in the rank queue or on the deferred stack, with the value it holds now.
    @inlinable
    final func settlePending(context: (any Sendable)?, state: PropagationState) {
        // Through a stack slot rather than `storage` (a `Value?`: unspecialised, a metadata look-up per settle).
        withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            lock.lock()
            // Skipped only when it already settled in this frame. A mark of another thread's frame means that
            // thread pushed into it meanwhile: the value this frame handed it still has to be heard (perhaps
            // overwritten by the newer one, which is what listeners must end with anyway).
            guard mark != state.frame | NodeMark.settled, copyStoredValue(to: slot) else {
                lock.unlock()
                return
            }
            mark = state.frame | NodeMark.settled
            settleLocked(slot.move(), context: context, state: state)
        }
    }

    /// Stores `value` and settles. Call under `lock`; returns unlocked. `inline` (a constant at each call) picks
    /// ``settleLockedInline(_:context:state:)``, for a hop, over the outlined ``settleLocked(_:context:state:)``.
    @inlinable @inline(__always)
    final func settleStoring(_ value: Value, context: (any Sendable)?, state: PropagationState,
                             inline: Bool = false) {
        // The old value leaves through `previous` and is released after the lock (it may be a node whose deinit
        // takes locks of its own).
        var previous = value
        _ = exchangeValue(&previous)
        mark = state.frame | NodeMark.settled
        if inline {
            settleLockedInline(value, context: context, state: state)
        } else {
            settleLocked(value, context: context, state: state)
        }
        extendLifetime(previous)
    }

    /// Tells listeners, then pushes downstream. Call under `lock`, with the value stored and the mark stamped;
    /// returns unlocked. Not inlined where a set starts (the set's own code stays small enough to inline into the
    /// caller: inlined there too, SubjectPumping cost 249 instructions a set rather than 238).
    @inlinable @inline(never)
    final func settleLocked(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        settleLockedInline(value, context: context, state: state)
    }

    /// ``settleLocked(_:context:state:)``, inlined into `receive`: a hop then runs as one function, without a second
    /// prologue and epilogue (MapFilterPumping 2,461 → 2,171 instructions per value, CombineLatestPumping 3,356 →
    /// 2,905).
    @inlinable @inline(__always)
    final func settleLockedInline(_ value: Value, context: (any Sendable)?, state: PropagationState) {
        #if RIPPLE_INTERNAL_CHECKS
        state.touched.append(self)
        #endif
        if edges.shape == .none {
            // Nothing to read (a node just made by an operator, a leaf nobody listens to): no reader to count in and
            // out, which is a locked instruction.
            let observed = observation != nil
            lock.unlock()
            if observed { notifyObservation(onPathOf: state) }
            return
        }
        // Observation first, as a first listener, and before the snapshot: its `onChange` is user code, which may
        // change this node's edges (a transform it unlinks is not pushed along), so the shortcuts below, which assume
        // no user code ran since the snapshot, hold. Its own lock round trip, paid only by an observed node.
        if observation != nil {
            lock.unlock()
            notifyObservation(onPathOf: state)
            lock.lock()
        }
        // One snapshot of both lists, neither retained nor copied (see `EdgeSnapshot.swift`): while this node is on
        // the settle path, nothing releases it, so the loops below read every listener and slot unretained.
        let snapshot = readEdges(state: state)
        let version = edgesVersion
        // A lone edge (see `NodeEdges`) is read through this local, as a one-element list.
        var lone = snapshot.object
        withUnsafeMutablePointer(to: &lone) { lonePointer in
            let (listeners, listenerCount, downstreamCount) = snapshot.layout(lone: lonePointer)
            // A cancelled listener's place in a list is a tombstone (see `EdgeList.swift`), skipped.
            // A lone edge has none: an address no object has then, so each check is one comparison.
            let tombstone = snapshot.shape == .list
                ? snapshot.object.toOpaque() : UnsafeMutableRawPointer(bitPattern: 1).unsafelyUnwrapped
            lock.unlock()
            state.path.push(ObjectIdentifier(self))
            if listenerCount == 1 {
                if listeners[0].toOpaque() != tombstone {
                    listeners[0]._withUnsafeGuaranteedRef { object in
                        // Called after the transaction commits, outside the domain (see `Domain.swift`); whether
                        // it is still attached is asked then.
                        collectDelivery(value, context: context, to: unsafeDowncast(object, to: ListenEdge<Value>.self),
                                        state: state)
                    }
                }
            } else if listenerCount > 1 {
                // Several listeners live only in a list: one queued call reads them all from it, in registration
                // order (a closure per listener cost FanOut100 ~1,050 instructions a listener).
                snapshot.object._withUnsafeGuaranteedRef {
                    collectDeliveries(value, context: context, from: unsafeDowncast($0, to: EdgeList.self),
                                      listeners: listenerCount, state: state)
                }
            }
            let downstream = listeners + listenerCount
            if downstreamCount == 0 {
                // A leaf: nothing to push.
            } else if downstreamCount == 1 {
                // A node inside a chain: its one edge, with no user code run since the snapshot (listener calls were
                // only queued; nothing to check again) and no sibling to wait for. Its own path, so that the loop
                // below costs a chain nothing.
                if downstream[0].toOpaque() != tombstone {
                    push(value, along: downstream[0], senders: SenderList(state: state), context: context,
                         state: state)
                }
            } else {
                let senders = SenderList(state: state)
                // Until the last edge, a later sibling may still change an upstream of what a push reaches.
                let last = downstreamCount - 1
                if last > 0 { state.openSiblings += 1 }
                var index = 0
                while index < downstreamCount {
                    if index == last && last > 0 { state.openSiblings -= 1 }
                    // Once user code has run (an earlier hop's transforms), the transform may have been unlinked:
                    // unless `edgesVersion` is unchanged, check it against the current edges, under this node's
                    // lock. Nothing ran before the first hop (listener calls were only queued).
                    if downstream[index].toOpaque() != tombstone
                        && (index == 0 || edgesVersion == version
                            || isStillDownstream(downstream[index], since: snapshot.object)) {
                        push(value, along: downstream[index], senders: senders, context: context, state: state)
                    }
                    index += 1
                }
            }
            state.path.count &-= 1
        }
    }

    /// Tells Observation with this node on the settle path: its `onChange` is user code, run in the frame, and a
    /// set it makes of this node must see the node as settling (see `EdgeSnapshot.swift`). Call unlocked.
    @inlinable @inline(__always)
    final func notifyObservation(onPathOf state: PropagationState) {
        state.path.push(ObjectIdentifier(self))
        notifyObservation()
        state.path.count &-= 1
    }

    /// Queues one listener call of the running transaction. The call captures the edge, not this node (see
    /// ``ListenEdge``).
    @inlinable
    final func collectDelivery(_ value: Value, context: (any Sendable)?, to listener: ListenEdge<Value>,
                               state: PropagationState) {
        // Straight into the held domain's queue (its lock is held): the calls join it in settle order, after every
        // earlier transaction's.
        if !listener.wantsSenders && context == nil {
            // The transaction's first call, while the queue is idle, waits outside it (see `ParkedCall.swift`).
            if park(value, for: listener, state: state) { return }
            // The common call: the closure captures neither the context nor a sender list (copying and destroying a
            // nil `(any Sendable)?` went through its value witnesses: SubjectPumping 1,492 → 1,460 instructions a
            // set).
            state.held!.deliveries.append { listener.deliver(value) }
            return
        }
        let senders = listener.wantsSenders ? state.senderSnapshot() : nil
        state.held!.deliveries.append { listener.deliver(value, context: context, senders: senders) }
    }

    /// Queues the calls of the first `count` places of `list` (listeners and tombstones), as one entry of the
    /// domain's queue. The entry holds the list, counted in as a reader (see ``EdgeList/addQueuedReader()``), and
    /// through it every listener; once run, it hands the list to the thread's drain to be counted out.
    @inlinable
    final func collectDeliveries(_ value: Value, context: (any Sendable)?, from list: EdgeList, listeners count: Int,
                                 state: PropagationState) {
        list.addQueuedReader()
        let wantsSenders = list.someListenerWantsSenders
        if !wantsSenders && context == nil {
            // The transaction's first call, while the queue is idle, waits outside it (see `ParkedCall.swift`).
            if park(value, forListenersIn: list, count: count, state: state) { return }
            state.held!.deliveries.append { Node.forEachQueuedListener(in: list, count: count) { $0.deliver(value) } }
            return
        }
        let senders = wantsSenders ? state.senderSnapshot() : nil
        state.held!.deliveries.append {
            Node.forEachQueuedListener(in: list, count: count) {
                $0.deliver(value, context: context, senders: senders)
            }
        }
    }

    /// Calls `body` with each listener among the first `count` places of `list`, borrowed: the caller holds the
    /// list, which holds them.
    @inlinable @inline(__always)
    static func forEachListener(in list: EdgeList, count: Int, _ body: (ListenEdge<Value>) -> Void) {
        let elements = list.elements
        let tombstone = list.tombstone
        var index = 0
        while index < count {
            if elements[index].toOpaque() != tombstone {
                elements[index]._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: ListenEdge<Value>.self)) }
            }
            index += 1
        }
    }

    /// ``forEachListener(in:count:_:)`` for a call run from the domain's queue: then hands the list to this thread's
    /// drain (`PropagationState.drainDeliveries`), which counts the read out under the domain.
    @inlinable @inline(__always)
    static func forEachQueuedListener(in list: EdgeList, count: Int, _ body: (ListenEdge<Value>) -> Void) {
        forEachListener(in: list, count: count, body)
        PropagationState.current._withUnsafeGuaranteedRef { $0.listsRead.append(list) }
    }

    /// Pushes `value` along one downstream slot: its transform, into its target if that is still alive (see
    /// `TargetRef.swift`), or waits in the rank queue (see `QueuePin.swift`).
    @inlinable @inline(__always)
    final func push(_ value: Value, along entry: Unmanaged<AnyObject>, senders: SenderList, context: (any Sendable)?,
                    state: PropagationState) {
        entry._withUnsafeGuaranteedRef { object in
            let slot = unsafeDowncast(object, to: DownstreamSlot<Value>.self)
            if let waiting = state.pinnedTarget(slot.target) {
                // It waits in the rank queue, whose entry holds it (see `QueuePin.swift`).
                slot.push(slot.edgeRef, waiting, value, senders, context)
            } else if let target = slot.target.retained() {
                slot.push(slot.edgeRef, target, value, senders, context)
                target.release()
            }
        }
    }

    /// Whether `entry` is still in this node's downstream list; `snapshot` is the object propagation started with
    /// (see ``EdgesSnapshot``).
    @inlinable
    final func isStillDownstream(_ entry: Unmanaged<AnyObject>, since snapshot: Unmanaged<AnyObject>) -> Bool {
        lock.lock()
        let linked = EdgesSnapshot(edges).object.toOpaque() == snapshot.toOpaque() || edges.containsDownstream(entry)
        lock.unlock()
        return linked
    }

    /// Starts a transaction at this node with a value that crossed a scheduler (or waited for a frame further out):
    /// the nodes in `senders` are not set again in it.
    final func resumePropagation(_ value: Value, context: (any Sendable)?, senders: SenderSnapshot) {
        let state = PropagationState.current.takeUnretainedValue()
        if state.held != nil || state.batchDepth > 0 {
            // From inside a transaction (a synchronous scheduler in a transform) or a batch: a later transaction.
            state.queueJob { [self] in self.resumePropagation(value, context: context, senders: senders) }
            return
        }
        state.transact(holding: lockOwnDomain()) {
            state.inFrame {
                for id in senders.ids { state.block(id) }
                if state.isBlocked(ObjectIdentifier(self)) { return }
                lock.lock()
                settleStoring(value, context: context, state: state)
            }
        }
    }

    /// Pushes this node's current value (if any) along one transform: what linking does.
    final func pushCurrentValue(along edge: Transform<Value, some Sendable>) {
        // Through a stack slot rather than `value` (a `Value?`, a metadata look-up here, where `Value` is generic).
        withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            if copyCurrentValue(to: slot) { pushValue(slot.move(), along: edge) }
        }
    }

    private func pushValue(_ current: Value, along edge: Transform<Value, some Sendable>) {
        let state = PropagationState.current.takeUnretainedValue()
        state.inFrame {
            state.block(ObjectIdentifier(self))
            edge.next(current, senders: SenderList(state: state), context: nil)
        }
    }

    /// ``pushCurrentValue(along:)`` for a transform just linked to `target`, which the caller holds: through the
    /// transform's push thunk, built where its types were concrete, rather than `next`, reached here through the
    /// vtable's unspecialised entry (the whole hop into `target` then ran generic).
    /// `copy` copies the value out (see `CurrentValueCopy`); nil for the generic copy.
    final func pushCurrentValue<Output: Sendable>(along edge: Transform<Value, Output>, into target: Node<Output>,
                                                  copyingCurrent copy: CurrentValueCopy<Value>?) {
        withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
            let slot = buffer.baseAddress.unsafelyUnwrapped
            let held = if let copy { copy(self, slot) } else { copyCurrentValue(to: slot) }
            guard held else { return }
            let current = slot.move()
            threadState._withUnsafeGuaranteedRef { state in
                state.inFrame {
                    state.block(ObjectIdentifier(self))
                    edge.push(.passUnretained(edge), .passUnretained(target), current, SenderList(state: state),
                              state.noContext)
                }
            }
        }
    }
}
