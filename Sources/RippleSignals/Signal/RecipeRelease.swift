import RippleCore

// Invariants: freeing a deep recipe (see Recipe.swift) recurses at most an `interval` of operators before a release
// barrier hands its upstream here. The upstream moves onto the thread's list (the barrier keeps a placeholder that
// frees nothing), and only the outermost hand-over on the thread empties the list, in a loop: an upstream freed
// from the loop hands its own deep upstream back to the list rather than to the call stack. So freeing a chain of
// any depth needs the stack of `2 × interval` operators (one interval, plus one more where `then` joins chains of
// unequal depth), on any thread.
// Nothing is deferred past the outermost hand-over: the recipe is entirely freed when its last release returns.
// The same mechanism as RippleNodes' release drain (`PropagationState.releaseDeferred`), kept per room: each drains
// its own kind of object.

/// The thread's release drain for deep recipes (see the invariants above).
@usableFromInline
enum RecipeRelease {
    /// Every this many levels an operator's upstream is freed from the drain rather than in place.
    @inlinable static var interval: UInt8 { 64 }

    /// Frees `signal` from the drain, leaving a placeholder in its place. Unspecialised: it runs once per
    /// `interval` levels.
    static func release<Value, Failure>(_ signal: inout Signal<Value, Failure>) {
        recipeDrains.unretained(orMake: { RecipeDrain() })._withUnsafeGuaranteedRef { drain in
            // The list holds the only reference once the placeholder is in: no local may keep it past the loop.
            drain.pending.append(signal)
            signal = Signal(body: .fused { _, _, _, _ in .nothing }, depth: 0)
            drain.drain()
        }
    }
}

/// One thread's list of upstreams to free. Per thread, so unsynchronised.
final class RecipeDrain {
    @exclusivity(unchecked) var pending: [Any] = []
    @exclusivity(unchecked) private var draining = false

    /// Whether the calling thread's drain holds nothing and runs no loop (for tests).
    static var isIdle: Bool {
        guard let drain = recipeDrains.unretained?.takeUnretainedValue() else { return true }
        return drain.pending.isEmpty && !drain.draining
    }

    /// Frees what `pending` holds, unless an outer call on this thread is already doing so.
    func drain() {
        if draining { return }
        draining = true
        while let next = pending.popLast() {
            // Freeing `next` (at the end of each turn) may append to `pending` and return.
            withExtendedLifetime(next) {}
        }
        draining = false
    }
}

let recipeDrains = ThreadLocal<RecipeDrain>()
