// The node this thread's rank queue took in last, pinned while it waits: a push into it skips the weak load of its
// slot's target.
//
// Invariants:
// - `node` is nil or the node of an entry waiting in this thread's rank queue or deferred stack, and `serial` is
//   its `Node.serial`. The entry holds the node retained (`PropagationState.enqueue`) until `runPending` has settled
//   it, and `runPending` unpins it as it takes the entry out: a pinned node is alive, and not deinitialising.
// - A slot is matched by its target's serial, never by address: a slot whose target died keeps the dead target's
//   address until its deferred unlink, and a new node may be allocated there; no node made later has its serial.
// - Only the thread that owns the state reads or writes the pin (a field of the per-thread `PropagationState`).
// - Checked with RIPPLE_INTERNAL_CHECKS: every use finds the pinned node in a waiting entry, and the slot's weak
//   reference loads that very node.
//
// Why: a node with several upstreams (a `combine`, a diamond's sink) is pushed to once per upstream that changes in
// the transaction. Every push loaded its slot's weak reference (`swift_weakLoadStrong`, ~48 instructions) and
// released what it got through the side table's slow path (~100). Every push but the first finds the node waiting
// in the queue, whose entry already keeps it alive. Callgrind, the pin alone (BENCHMARKS.md, ninth session):
// KairoTriangle 7,868 → 6,978 instructions an update, KairoDiamond 4,883 → 4,498, every hop ~4 more.

/// The node of the last entry this thread's rank queue or deferred stack took in, until that entry settles.
@usableFromInline @frozen
struct QueuePin {
    /// The node's serial; 0 (no node has it) when nothing is pinned.
    @usableFromInline let serial: UInt64
    @usableFromInline let node: Unmanaged<AnyObject>?

    @inlinable
    init() {
        serial = 0
        node = nil
    }

    @inlinable
    init(_ node: Unmanaged<AnyObject>, serial: UInt64) {
        self.node = node
        self.serial = serial
    }

    /// Whether `node` is the pinned node.
    @inlinable
    func holds(_ node: Unmanaged<AnyObject>) -> Bool {
        self.node?.toOpaque() == node.toOpaque()
    }
}

extension PropagationState {
    /// `target`'s node, unretained, when it is the pinned one (the queue's entry keeps it alive), or nil.
    @inlinable @inline(__always)
    func pinnedTarget(_ target: TargetRef) -> Unmanaged<AnyObject>? {
        guard target.serial == pin.serial else { return nil }
        #if RIPPLE_INTERNAL_CHECKS
        checkPinned(target)
        #endif
        return pin.node
    }

    #if RIPPLE_INTERNAL_CHECKS
    /// The pinned node waits in an entry, and `target`, which matched it, points at that very node.
    @usableFromInline
    func checkPinned(_ target: TargetRef) {
        let address = pin.node?.toOpaque()
        precondition(queue.entries.contains { $0.node.toOpaque() == address }
                     || deferred.contains { $0.node.toOpaque() == address },
                     "invariant: the pinned node is in no waiting entry of the rank queue or the deferred stack")
        let loaded = target.retained()
        precondition(loaded?.toOpaque() == address,
                     "invariant: a slot matched the pinned node's serial but points at another node")
        loaded?.release()
    }
    #endif
}
