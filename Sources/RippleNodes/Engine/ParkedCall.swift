import DequeModule

// A transaction's first listener call, made by the committing thread itself after the commit rather than through the
// domain's queue. Most transactions make one call (a view model's property bound to a view, a chain's last node),
// and queueing it cost a closure allocation, an append and a pop, and their reference counting: SubjectPumping
// 1,231 → 800 instructions a set, KairoDiamond 5,314 → 4,883 an update.
//
// Invariants:
// - A call parks only while the held domain's queue is empty, no batch of calls is in flight and nothing is parked: it
//   is the transaction's first call. Nor past `maxNestedDrains` nested drains, where drains are deferred (see
//   `NestedCalls.swift`). Parking claims the queue as taking a batch out does (`batchesInFlight = 1`), so every later
//   call, of this transaction or of another thread's, waits in the queue behind the parked one and runs after it: the
//   order the queue would give (see `Domain.swift`).
// - Only a call without a context or a sender list parks (`Node.collectDelivery`, or `Node.collectDeliveries` for a
//   node's several listeners, read from its edge list), of a value that fits `parkedValue`. The value is initialised
//   there, typed (`bindMemory`), and moved out by the parked call before it runs any user code, so a transaction that
//   call starts may park in the same storage.
// - `parkedListener` (retained), `parkedCount` (0 for one listener) and `parkedCall` are set together and taken
//   together by the commit.
// - A parked call of several listeners reads an edge list counted in as a queued reader (see `EdgeList.swift`). Run
//   by the commit itself, it leaves the list to the commit, which counts it out the next time it holds the domain
//   (no trip through `listsRead`: FanOut100 ~120 instructions a set); queued after all (a merged graph's batches in
//   flight), it is a queued call like any other.
// - A graph merged in after the claim, in the same transaction, may bring batches another thread is still running
//   (`batchesInFlight > 1` at the commit). The parked call then goes to the front of the queue, where a queued call
//   would have been, and waits for them: it never runs beside them.

/// How many bytes, and what alignment, a parked value may need: a larger value's call is queued.
@usableFromInline let parkedValueSize = 64
@usableFromInline let parkedValueAlignment = 16

/// Makes the parked call: moves the value out of the storage and calls the listener (or the first `count` places of
/// the edge list) with it, or, given a domain (held), queues the call at the front of its queue. Built where the value
/// type is concrete; it captures nothing, so storing it allocates nothing.
@usableFromInline
typealias ParkedCall = (_ listener: Unmanaged<AnyObject>, _ value: UnsafeMutableRawPointer, _ count: Int,
                        _ queueIn: Domain?) -> Void

extension Node {
    /// Parks the call of `listener` with `value` when it may; returns false when it must be queued. Call holding the
    /// domain, for a call without a context or a sender list.
    @inlinable @inline(__always)
    final func park(_ value: Value, for listener: ListenEdge<Value>, state: PropagationState) -> Bool {
        guard MemoryLayout<Value>.size <= parkedValueSize, MemoryLayout<Value>.alignment <= parkedValueAlignment,
              state.claimQueueForParkedCall() else { return false }
        state.parkedValue.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        state.parkedListener = Unmanaged.passRetained(listener)
        state.parkedCount = 0
        state.parkedCall = { listener, storage, _, domain in
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

    /// Parks the call of the first `count` places of `list`, this node's several listeners, when it may; returns
    /// false when it must be queued. Call holding the domain, with `list` counted in as a queued reader, for a call
    /// without a context or a sender list. (Queued, the call cost FanOut100 a closure allocation, an append, a pop
    /// and a lock round trip: see BENCHMARKS.md, "parked calls of several listeners".)
    @inlinable @inline(__always)
    final func park(_ value: Value, forListenersIn list: EdgeList, count: Int, state: PropagationState) -> Bool {
        guard MemoryLayout<Value>.size <= parkedValueSize, MemoryLayout<Value>.alignment <= parkedValueAlignment,
              state.claimQueueForParkedCall() else { return false }
        state.parkedValue.bindMemory(to: Value.self, capacity: 1).initialize(to: value)
        state.parkedListener = Unmanaged.passRetained(list)
        state.parkedCount = count
        state.parkedCall = { list, storage, count, domain in
            let value = storage.bindMemory(to: Value.self, capacity: 1).move()
            list._withUnsafeGuaranteedRef {
                let list = unsafeDowncast($0, to: EdgeList.self)
                if let domain {
                    domain.deliveries.prepend {
                        Node.forEachQueuedListener(in: list, count: count) { $0.deliver(value) }
                    }
                } else {
                    Node.forEachListener(in: list, count: count) { $0.deliver(value) }
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
        guard parkedListener == nil, let root = held, root.batchesInFlight == 0, root.deliveries.isEmpty,
              !mustDeferDrain else {
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
        let count = parkedCount
        parkedListener = nil
        if root.batchesInFlight > 1 {
            // A graph merged in meanwhile brought batches still running: the call waits for them, first in the
            // queue, and the last batch to finish takes it.
            call(parked, parkedValue, count, root)
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
        drainDepth &+= 1
        call(parked, parkedValue, count, nil)
        endNestedDrain()
        if let queued = queued.take() {
            drainQueued(queued, from: root, afterParked: parked, readList: count > 0)
        } else {
            // The parked call was the batch in flight: end it, taking out what was queued meanwhile if it was the last
            // (`drainDeliveries` with a new empty batch would do it, but making that batch cost ~120 instructions a
            // set). `root` is usually still the root, locked in place: `lockRoot` returned it retained (~37
            // instructions a set).
            if root.lockIfRoot() {
                endParkedBatch(root, parked: parked, readList: count > 0)
            } else {
                endParkedBatch(Domain.lockRoot(from: root), parked: parked, readList: count > 0)
            }
        }
        if !jobs.isEmpty { drainJobs() }
    }

    /// Runs the calls queued behind the parked one, which has run; the drain counts out the list that call read, if
    /// it read one (`readList`). Out of line: inlined, it made the commit spill registers on its common path
    /// (SubjectPumping +11 instructions a set).
    @inline(never)
    private func drainQueued(_ queued: consuming Deque<() -> Void>, from root: Domain,
                             afterParked parked: Unmanaged<AnyObject>, readList: Bool) {
        let firstRead = listsRead.count
        if readList {
            listsRead.append(unsafeDowncast(parked.takeRetainedValue(), to: EdgeList.self))
        } else {
            parked.release()
        }
        drainDeliveries(from: root, taken: queued, readSince: firstRead)
    }

    /// Ends the batch the parked call was, in `domain` (locked; unlocked on return): counts out the list the call
    /// read, if it read one (`readList`), releases what it called outside the domain, and takes out what was queued
    /// meanwhile if it was the last batch in flight.
    private func endParkedBatch(_ domain: Domain, parked: Unmanaged<AnyObject>, readList: Bool) {
        if readList { parked._withUnsafeGuaranteedRef { unsafeDowncast($0, to: EdgeList.self).removeQueuedReader() } }
        domain.batchesInFlight -= 1
        if domain.batchesInFlight == 0 && !domain.deliveries.isEmpty {
            let taken = domain.takeDeliveries()
            domain.unlock()
            parked.release()
            drainDeliveries(from: domain, taken: taken)
        } else {
            domain.unlock()
            parked.release()
        }
    }
}
