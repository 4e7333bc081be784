import DequeModule

// A transaction's first listener call, made by the committing thread itself after the commit rather than through the
// domain's queue. Most transactions make one call (a view model's property bound to a view, a chain's last node),
// and queueing it cost a closure allocation, an append and a pop, and their reference counting: SubjectPumping
// 1,231 → 800 instructions a set, KairoDiamond 5,314 → 4,883 an update.
//
// Invariants:
// - A call parks only while the held domain's queue is empty, no batch of calls is in flight and nothing is parked:
//   it is the transaction's first call. Parking claims the queue as taking a batch out does
//   (`batchesInFlight = 1`), so every later call, of this transaction or of another thread's, waits in the queue
//   behind the parked one and runs after it: the order the queue would give (see `Domain.swift`).
// - Only a call without a context or a sender list parks (`Node.collectDelivery`), of a value that fits
//   `parkedValue`. The value is initialised there, typed (`bindMemory`), and moved out by the parked call before it
//   runs any user code, so a transaction that call starts may park in the same storage.
// - `parkedListener` (retained) and `parkedCall` are set together and taken together by the commit.
// - A graph merged in after the claim, in the same transaction, may bring batches another thread is still running
//   (`batchesInFlight > 1` at the commit). The parked call then goes to the front of the queue, where a queued call
//   would have been, and waits for them: it never runs beside them.

/// How many bytes, and what alignment, a parked value may need: a larger value's call is queued.
@usableFromInline let parkedValueSize = 64
@usableFromInline let parkedValueAlignment = 16

/// Makes the parked call: moves the value out of the storage and calls the listener with it, or, given a domain (held),
/// queues the call at the front of its queue. Built where the value type is concrete; it captures nothing, so
/// storing it allocates nothing.
@usableFromInline
typealias ParkedCall = (_ listener: Unmanaged<AnyObject>, _ value: UnsafeMutableRawPointer, _ queueIn: Domain?) -> Void

extension Node {
    /// Parks the call of `listener` with `value` when it may; returns false when it must be queued. Call holding the
    /// domain, for a call without a context or a sender list.
    @inlinable @inline(__always)
    final func park(_ value: Value, for listener: ListenEdge<Value>, state: PropagationState) -> Bool {
        guard MemoryLayout<Value>.size <= parkedValueSize, MemoryLayout<Value>.alignment <= parkedValueAlignment,
              state.claimQueueForParkedCall() else { return false }
        state.parkedValue.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        state.parkedListener = Unmanaged.passRetained(listener)
        state.parkedCall = { listener, storage, domain in
            let value = storage.bindMemory(to: Value.self, capacity: 1).move()
            listener._withUnsafeGuaranteedRef {
                let edge = unsafeDowncast($0, to: ListenEdge<Value>.self)
                if let domain {
                    domain.deliveries.prepend { edge.deliver(value) }
                } else {
                    edge.deliver(value)
                }
            }
        }
        return true
    }
}

extension PropagationState {
    /// Claims the held domain's queue for a parked call: true when it was empty, with no batch in flight and no
    /// call parked.
    @usableFromInline
    func claimQueueForParkedCall() -> Bool {
        guard parkedListener == nil, let root = held, root.batchesInFlight == 0, root.deliveries.isEmpty else {
            return false
        }
        root.batchesInFlight = 1
        return true
    }

    /// ``commit(_:)`` of a transaction with a parked call: releases the domain, makes the parked call, runs the calls
    /// queued behind it, then the sets the transaction deferred.
    func commit(_ root: Domain, parked: Unmanaged<AnyObject>) {
        #if RIPPLE_INTERNAL_CHECKS
        checkInvariants(root)
        #endif
        let call = parkedCall
        parkedListener = nil
        if root.batchesInFlight > 1 {
            // A graph merged in meanwhile brought batches still running: the call waits for them, first in the
            // queue, and the last batch to finish takes it.
            call(parked, parkedValue, root)
            parked.release()
            root.batchesInFlight -= 1
            release(root)
            if !jobs.isEmpty { drainJobs() }
            return
        }
        // The calls this transaction queued behind the parked one.
        var queued: Deque<() -> Void>? = nil
        if !root.deliveries.isEmpty {
            var taken = Deque<() -> Void>()
            swap(&taken, &root.deliveries)
            queued = taken
        }
        release(root)
        call(parked, parkedValue, nil)
        parked.release()
        if let queued = queued.take() {
            drainDeliveries(from: root, taken: queued)
        } else {
            // The parked call was the batch in flight: end it, taking out what was queued meanwhile if it was the last
            // (`drainDeliveries` with a new empty batch would do it, but making that batch cost ~120 instructions a
            // set). `root` is usually still the root, locked in place: `lockRoot` returned it retained (~37
            // instructions a set).
            if root.lockIfRoot() {
                endParkedBatch(root)
            } else {
                endParkedBatch(Domain.lockRoot(from: root))
            }
        }
        if !jobs.isEmpty { drainJobs() }
    }

    /// Ends the batch the parked call was, in `domain` (locked; unlocked on return): takes out what was queued
    /// meanwhile if it was the last batch in flight.
    private func endParkedBatch(_ domain: Domain) {
        domain.batchesInFlight -= 1
        if domain.batchesInFlight == 0 && !domain.deliveries.isEmpty {
            let taken = domain.takeDeliveries()
            domain.unlock()
            drainDeliveries(from: domain, taken: taken)
        } else {
            domain.unlock()
        }
    }
}
