import DequeModule

// Listener calls nested through other graphs, on a stack of bounded depth.
//
// A listener that sets a node of another graph starts that graph's transaction at once, and its commit runs that
// graph's listener calls inside the first call; if one of those sets a third graph, and so on, the thread's stack
// grows by a drain per graph. A chain of 2,000 graphs, each listener setting the next, overflowed a 512 KiB thread.
//
// Invariants:
// - `callDepth` is how many listener calls this thread is inside: every call goes through `makeCall`, the drain's
//   and the parked one's alike.
// - A commit made inside `maxNestedCalls` calls or more does not run its calls: it queues their drain on the thread's
//   `deferredDrains` (and no call parks there: `claimQueueForParkedCall`). The graph's queue stays claimed meanwhile
//   (`batchesInFlight`), so other threads' calls of that graph wait behind, in order, as behind any running batch.
// - The call that brought the thread to `maxNestedCalls` runs the deferred drains once it returns, in the order they
//   were queued, at that same depth: their calls are again at `maxNestedCalls`, and what they defer joins the same
//   loop (`runningDeferredDrains`), so the stack never holds more than `maxNestedCalls` calls.
// - Below `maxNestedCalls - 1`, once a call returns, nothing is deferred (checked in internal-checks builds).
//
// What a listener sees: up to 32 graphs deep, another graph's calls run inside the call that set it, as before;
// past that, right after that call returns instead (the Propagation article says so).

/// How many listener calls may nest through other graphs' transactions before their calls are deferred.
@usableFromInline let maxNestedCalls = 32

extension PropagationState {
    /// Makes one listener call (a queued closure, or the parked call through `body`), counting its depth, then runs
    /// what calls past the limit deferred.
    @inlinable @inline(__always)
    func makeCall(_ body: () -> Void) {
        callDepth &+= 1
        body()
        callDepth &-= 1
        if callDepth == maxNestedCalls - 1 && !deferredDrains.isEmpty { runDeferredDrains() }
        #if RIPPLE_INTERNAL_CHECKS
        precondition(callDepth >= maxNestedCalls - 1 || deferredDrains.isEmpty,
                     "invariant: a drain deferred past \(maxNestedCalls) nested calls was left behind")
        #endif
    }

    /// Whether a commit here must defer its calls (see the invariants above).
    @inlinable @inline(__always)
    var mustDeferCalls: Bool {
        callDepth >= maxNestedCalls
    }

    /// Queues the drain of a committed transaction's calls for the call at `maxNestedCalls` to run once it returns.
    func deferDrain(from root: Domain, taken: consuming Deque<() -> Void>) {
        let calls = taken
        deferredDrains.append { self.drainDeliveries(from: root, taken: calls) }
    }

    /// Runs the deferred drains, and those they defer, in order; nested, returns at once (the outer loop runs them).
    @usableFromInline
    func runDeferredDrains() {
        guard !runningDeferredDrains else { return }
        runningDeferredDrains = true
        while let drain = deferredDrains.popFirst() { drain() }
        runningDeferredDrains = false
    }
}
