import DequeModule
import RippleCore

// How a transaction holds its domain, commits, and hands its listener calls over.
//
// Invariants:
// - A thread holds at most one domain (`PropagationState.held`) and runs at most one transaction at a time; every
//   frame (see `Transaction.swift`) opens and closes while that domain is held, so a node's mark, the rank queue and
//   the deferred stack are only ever touched by the domain's holder.
// - Commit order is transaction order: a transaction's listener calls join the domain's delivery queue while it
//   holds the lock (`Node.collectDelivery`), and the queue is run in order, a batch at a time, outside every lock
//   (see `Domain.batchesInFlight`).
// - Work that needs a domain while the thread holds another it cannot take at once (a set from a transform, a link
//   into a busy graph, a batch inside a transform) waits in the thread's `jobs` and runs, FIFO, as later
//   transactions once the domain is released.

/// A set collected by `Node.batch`: applied when the outermost batch ends.
@usableFromInline
struct CollectedSet {
    let node: any DomainMember
    let apply: (PropagationState) -> Void
}

extension PropagationState {
    /// Runs `body` holding the merged domain of `nodes` (the thread holds none), then commits.
    func transact(_ nodes: [any DomainMember], _ body: () -> Void) {
        transact(holding: lockAll(nodes), body)
    }

    /// Runs `body` as a transaction of `root`, which this thread has just locked (it held no domain), then commits.
    func transact(holding root: Domain, _ body: () -> Void) {
        held = root
        body()
        commit(root)
    }

    /// Runs `body` holding the merged domain of a link's ends (the thread holds none), then commits.
    func transact(_ ends: LinkEnds, _ body: () -> Void) {
        transact(holding: lockAll(ends), body)
    }

    /// Locks the one domain a link's ends belong to, merging theirs first. Call holding no domain.
    func lockAll(_ ends: LinkEnds) -> Domain {
        // The members passed straight from the borrowed struct, not bound (see `LinkEnds.allSatisfy`).
        if ends.second == nil { return lockDomain(of: ends.first.unsafelyUnwrapped) }
        if ends.third == nil { return lockMerged(ends.first.unsafelyUnwrapped, ends.second.unsafelyUnwrapped) }
        lockMerged(ends.first.unsafelyUnwrapped, ends.second.unsafelyUnwrapped).unlock()
        lockMerged(ends.first.unsafelyUnwrapped, ends.third.unsafelyUnwrapped).unlock()
        // Domains only ever merge, so every node is still in `first`'s.
        return lockDomain(of: ends.first.unsafelyUnwrapped)
    }

    /// Locks the one domain all of `nodes` belong to, merging theirs first. Call holding no domain.
    func lockAll(_ nodes: [any DomainMember]) -> Domain {
        let first = nodes[0]
        if nodes.count == 1 { return lockDomain(of: first) }
        if nodes.count == 2 { return lockMerged(first, nodes[1]) }
        for other in nodes.dropFirst() { lockMerged(first, other).unlock() }
        // Domains only ever merge, so every node is still in `first`'s.
        return lockDomain(of: first)
    }

    /// Runs `operation` with the domain of a link's ends held: as a transaction of its own when the thread holds
    /// none, at once when the thread's domain includes (or can take over at once) every end's, otherwise later, as a
    /// job.
    // Never inlined: inlined into a link path that knows its ends are `Node<Input>` and `Node<Output>`, the optimiser
    // specialised `tryJoin` for those types, which there are generic: two metadata look-ups per link
    // (MapFilterCreating 104,192 → 113,726 instructions when that happened).
    @inline(never)
    func withDomains(_ ends: LinkEnds, _ operation: @escaping () -> Void) {
        if !runWithDomains(ends, operation) {
            queueJob { [unowned self] in self.withDomains(ends, operation) }
        }
    }

    /// ``withDomains(_:_:)`` without the job: returns false, without running `operation`, when it would have been
    /// queued, and the caller queues what it needs. `operation` does not escape, so a caller's closure needs no
    /// context on the heap (an escaping one cost an allocation per link; see `Transform.linkUnused`).
    @inline(never)
    func runWithDomains(_ ends: LinkEnds, _ operation: () -> Void) -> Bool {
        if ends.isEmpty {
            operation()
        } else if let held {
            guard ends.allSatisfy({ tryJoin($0, into: held) }) else { return false }
            operation()
        } else {
            transact(ends, operation)
        }
        return true
    }

    /// Ends the transaction holding `root`: checks the invariants (internal-checks builds), releases the domain and
    /// the edge lists replaced under it, runs the domain's listener calls unless another thread is running them, then
    /// the sets this transaction deferred.
    @usableFromInline
    func commit(_ root: Domain) {
        if let parked = parkedListener {
            commit(root, parked: parked)
            return
        }
        #if RIPPLE_INTERNAL_CHECKS
        checkInvariants(root)
        #endif
        // Taking the calls out here, under the lock the transaction already holds, saves the drain a lock round
        // trip per set; a commit that queued none touches no queue.
        var calls: Deque<() -> Void>? = nil
        if root.batchesInFlight == 0 && !root.deliveries.isEmpty { calls = root.takeDeliveries() }
        release(root)
        if let taken = calls.take() { drainDeliveries(from: root, taken: taken) }
        if !jobs.isEmpty { drainJobs() }
    }

    /// Releases the committed transaction's domain, then the edge lists replaced under it.
    func release(_ root: Domain) {
        held = nil
        root.unlock()
        if !retiredEdges.isEmpty { releaseRetiredEdges() }
    }

    /// Releases the edge lists the transaction replaced while reading them, outside the domain (a list may hold the
    /// last reference to a transform, and so to a node).
    private func releaseRetiredEdges() {
        let retired = retiredEdges
        retiredEdges = []
        extendLifetime(retired)
    }

    /// Runs `taken`, a batch of the domain's queued listener calls, in order, outside the lock; then, unless another
    /// batch is still in flight (graphs merged while two threads ran their calls), takes out whatever was queued
    /// meanwhile and runs that, until the queue is empty. One lock round trip per batch, not one per call. A domain
    /// merged meanwhile is followed to its root. `readSince`: where in `listsRead` the lists this drain counts out
    /// start (a parked call run just before may have read one).
    func drainDeliveries(from start: Domain, taken: consuming Deque<() -> Void>, readSince: Int? = nil) {
        // Past `maxNestedDrains` nested drains, this one runs once the drain at that depth ends (`NestedCalls.swift`).
        if mustDeferDrain {
            deferDrain(from: start, taken: taken)
            return
        }
        drainDepth &+= 1
        defer { endNestedDrain() }
        var domain = start
        // A call may start a transaction of another graph and drain its calls: that drain counts out only the lists
        // read after its own `firstRead`, and leaves the list as it found it (each round below ends back at
        // `firstRead`).
        let firstRead = readSince ?? listsRead.count
        while true {
            while let call = taken.popFirst() { call() }
            domain = Domain.lockRoot(from: domain)
            if listsRead.count > firstRead { countOutReaders(from: firstRead) }
            domain.batchesInFlight -= 1
            guard domain.batchesInFlight == 0, !domain.deliveries.isEmpty else {
                // The last batch to finish takes what is queued. An empty queue takes `taken`'s storage for the
                // next calls (a queue allocated and freed per set cost SubjectPumping ~400 instructions).
                if domain.deliveries.isEmpty { swap(&taken, &domain.deliveries) }
                domain.unlock()
                if listsRead.count > firstRead { releaseListsRead(downTo: firstRead) }
                return
            }
            // `taken` is empty: swapped, it takes the queued calls out and leaves its storage to the domain.
            swap(&taken, &domain.deliveries)
            domain.batchesInFlight = 1
            domain.unlock()
            if listsRead.count > firstRead { releaseListsRead(downTo: firstRead) }
        }
    }

    /// Counts out the queued calls that read the lists `listsRead` holds from `first` on. Call holding the domain the
    /// calls were queued in.
    private func countOutReaders(from first: Int) {
        for index in first..<listsRead.count { listsRead[index].removeQueuedReader() }
    }

    /// Drops the lists `listsRead` holds from `first` on, one by one, outside the domain: a list may hold the last
    /// reference to a listener, and so to a node, whose release runs user code (a deinit) that may drain calls of
    /// its own, above `first`. Removing each list before its release keeps the array out of that release.
    private func releaseListsRead(downTo first: Int) {
        while listsRead.count > first { _ = listsRead.removeLast() }
    }

    /// Applies the sets the outermost `Node.batch` collected: one transaction over the merged domain of every node
    /// set, so no other thread sees part of it. Inside a transaction, a later one.
    func applyBatch() {
        let sets = batchSets
        batchSets = []
        guard !sets.isEmpty else { return }
        if held != nil {
            queueJob { [unowned self] in self.applyCollected(sets) }
        } else {
            applyCollected(sets)
        }
    }

    private func applyCollected(_ sets: [CollectedSet]) {
        transact(sets.map(\.node)) {
            let saved = openFrame(collecting: true)
            for set in sets { set.apply(self) }
            collecting = false
            closeFrame(saved)
        }
    }

    #if RIPPLE_INTERNAL_CHECKS
    /// What must hold when a transaction commits.
    func checkInvariants(_ root: Domain) {
        precondition(root.held.load(ordering: .relaxed), "commit: the domain is not locked")
        precondition(root.parent == nil, "commit: the held domain is not a root")
        precondition(frame == 0, "commit: a frame is still open")
        precondition(queue.count == 0 && deferred.isEmpty && waiting == 0,
                     "commit: nodes still wait in the rank queue or on the deferred stack")
        precondition(path.count == 0 && openSiblings == 0, "commit: the settle path is not empty")
        precondition(outerFrames.count == 0 && !collecting, "commit: an outer frame is still open")
        checkTouchedNodes()
    }
    #endif
}
