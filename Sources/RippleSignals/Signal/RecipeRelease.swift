import RippleCore

// Invariants: freeing a deep recipe (see `Recipe`) recurses at most `interval` boxes before a box hands its upstream
// here. The upstream moves onto the thread's list (the box keeps a placeholder that frees nothing), and only the
// outermost hand-over on the thread empties the list, in a loop: an upstream freed from the loop hands its own deep
// upstream back to the list rather than to the call stack. So freeing a chain of any depth needs the stack of
// `2 × interval` boxes (one interval, plus one more where `then` joins chains of unequal depth), on any thread.
// Nothing is deferred past the outermost hand-over: the recipe is entirely freed when its last release returns.
// The same mechanism as RippleNodes' release drain (`PropagationState.releaseDeferred`), kept per room: each drains
// its own kind of object.

/// The thread's release drain for deep recipes (see the invariants above).
@usableFromInline
enum RecipeRelease {
    /// Every this many levels a recipe's upstream is freed from the drain rather than in place.
    @inlinable static var interval: UInt32 { 64 }

    /// Frees `signal` from the drain, leaving a placeholder in its place. Out of line and unspecialised: it runs
    /// once per `interval` levels.
    @usableFromInline
    static func release<Value, Failure>(_ signal: inout Signal<Value, Failure>) {
        let taken: Any = signal
        signal = Signal(body: .fused { _, _, _, _ in .nothing }, depth: 0)
        let drain = recipeDrains.unretained(orMake: { RecipeDrain() })
        drain._withUnsafeGuaranteedRef { $0.release(taken) }
    }
}

/// One thread's list of upstreams to free. Per thread, so unsynchronised.
final class RecipeDrain {
    @exclusivity(unchecked) private var pending: [Any] = []
    @exclusivity(unchecked) private var draining = false

    func release(_ taken: Any) {
        pending.append(taken)
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
