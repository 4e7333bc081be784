import DequeModule

// Listener calls nested through other graphs, on a stack of bounded depth.
//
// A listener that sets a node of another graph starts that graph's transaction at once, and its commit drains that
// graph's listener calls inside the first call; if one of those sets a third graph, and so on, the thread's stack
// grows by a drain per graph. A chain of 2,000 graphs, each listener setting the next, overflowed a 512 KiB thread.
//
// Invariants:
// - `drainDepth` is how many drains of listener calls this thread is inside: `drainDeliveries`, and a commit making
//   its parked call, each count themselves for as long as they run calls.
// - A drain that would start inside `maxNestedDrains` others does not run: it queues itself on the thread's
//   `deferredDrains` (and no call parks there: `claimQueueForParkedCall`). The graph's queue stays claimed meanwhile
//   (`batchesInFlight`), so other threads' calls of that graph wait behind, in order, as behind any running batch.
// - The drain at depth `maxNestedDrains` runs the deferred drains once it ends, in the order they were queued, at its
//   own depth: what they defer joins the same loop (`runningDeferredDrains`), so the stack never holds more than
//   `maxNestedDrains` drains.
// - Below `maxNestedDrains - 1`, once a drain ends, nothing is deferred (checked in internal-checks builds).
// - Counted per drain, not per call: per call it cost KairoBroad ~8 instructions a listener call.
//
// What a listener sees: up to 32 graphs deep, another graph's calls run inside the call that set it, as before;
// past that, once the calls of the batch that set it have run (the Propagation article says so).

/// How many drains of listener calls may nest through other graphs' transactions before a drain is deferred.
@usableFromInline let maxNestedDrains = 32

extension PropagationState {
    /// Whether a drain starting here must be deferred (see the invariants above).
    @inlinable @inline(__always)
    var mustDeferDrain: Bool {
        drainDepth >= maxNestedDrains
    }

    /// Ends a drain counted in `drainDepth`, then runs the drains deferred past the limit if it was the drain there.
    @inline(__always)
    func endNestedDrain() {
        drainDepth &-= 1
        if drainDepth == maxNestedDrains - 1 && !deferredDrains.isEmpty { runDeferredDrains() }
        #if RIPPLE_INTERNAL_CHECKS
        precondition(drainDepth >= maxNestedDrains - 1 || deferredDrains.isEmpty,
                     "invariant: a drain deferred past \(maxNestedDrains) nested drains was left behind")
        #endif
    }

    /// Queues a committed transaction's drain for the drain at `maxNestedDrains` to run once it ends.
    func deferDrain(from root: Domain, taken: consuming Deque<() -> Void>) {
        let calls = taken
        deferredDrains.append { self.drainDeliveries(from: root, taken: calls) }
    }

    /// Runs the deferred drains, and those they defer, in order; nested, returns at once (the outer loop runs them).
    func runDeferredDrains() {
        guard !runningDeferredDrains else { return }
        runningDeferredDrains = true
        while let drain = deferredDrains.popFirst() { drain() }
        runningDeferredDrains = false
    }
}
