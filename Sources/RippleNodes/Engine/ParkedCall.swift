import DequeModule

// The set node's own listener call, made by the set itself after the commit rather than through the domain's queue:
// a plain set of a node with one listener (a view model's property bound to a view) is the commonest transaction,
// and queueing its one call cost a closure allocation, an append and a pop, and their reference counting.
//
// Invariants:
// - Only a plain set parks (`Node.startPropagation` with no transaction or batch open on the thread, no context),
//   and only the call of the set node's lone listener when it reads no sender list. That node settles first, so
//   its call is the transaction's first; the set delivers it, knowing the value and its type.
// - It parks only while the held domain's queue is empty and no batch of calls is in flight, and parking claims
//   the queue as taking a batch out does (`batchesInFlight = 1`). So every later call, of this transaction or of
//   another thread's, waits in the queue behind the parked one, and runs after it: the order the queue would give
//   (see `Domain.swift`).
// - `PropagationState.parkedListener` is retained while parked, and nil again before the commit.

extension Node {
    /// Parks the call of `listener` (this node's lone listener) when it may; returns false when it must be queued.
    @inlinable @inline(__always)
    final func park(_ listener: ListenEdge<Value>, context: (any Sendable)?, state: PropagationState) -> Bool {
        guard context == nil, !listener.wantsSenders, state.claimQueueForParkedCall() else { return false }
        state.parkedListener = Unmanaged.passRetained(listener)
        return true
    }

    /// Commits the transaction holding `root`, then calls `parked` (this node's listener) with `value`, then the
    /// calls queued behind it.
    @inlinable @inline(__always)
    final func commitDelivering(_ value: Value, to parked: Unmanaged<AnyObject>, root: Domain,
                                state: PropagationState) {
        let queued = state.commitParked(root)
        parked._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ListenEdge<Value>.self).deliver(value) }
        parked.release()
        state.finishParked(root, queued: queued)
    }
}

extension PropagationState {
    /// Claims the held domain's queue for a parked call: true when it was empty, with no batch in flight.
    @usableFromInline
    func claimQueueForParkedCall() -> Bool {
        guard let root = held, root.batchesInFlight == 0, root.deliveries.isEmpty else { return false }
        root.batchesInFlight = 1
        return true
    }

    /// ``commit(_:)`` of a transaction with a parked call, up to the calls: releases the domain and returns the calls
    /// queued behind the parked one, when no other batch is in flight (graphs merged meanwhile) to run first.
    @usableFromInline
    func commitParked(_ root: Domain) -> Deque<() -> Void>? {
        #if RIPPLE_INTERNAL_CHECKS
        checkInvariants(root)
        #endif
        var queued: Deque<() -> Void>? = nil
        if root.batchesInFlight == 1 && !root.deliveries.isEmpty {
            var taken = Deque<() -> Void>()
            swap(&taken, &root.deliveries)
            queued = taken
        }
        held = nil
        root.unlock()
        if !retiredEdges.isEmpty { releaseRetiredEdges() }
        return queued
    }

    /// ``commit(_:)`` after the parked call: runs `queued`, ends the parked batch (taking out what was queued
    /// meanwhile if it is the last in flight), then the sets the transaction deferred.
    @usableFromInline
    func finishParked(_ root: Domain, queued: consuming Deque<() -> Void>?) {
        if let queued = queued.take() {
            drainDeliveries(from: root, taken: queued)
        } else {
            let domain = Domain.lockRoot(from: root)
            domain.batchesInFlight -= 1
            if domain.batchesInFlight == 0 && !domain.deliveries.isEmpty {
                let taken = domain.takeDeliveries()
                domain.unlock()
                drainDeliveries(from: domain, taken: taken)
            } else {
                domain.unlock()
            }
        }
        if !jobs.isEmpty { drainJobs() }
    }
}
