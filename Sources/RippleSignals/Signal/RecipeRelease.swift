import RippleCore

// Invariants: freeing a deep recipe (see Recipe.swift) recurses at most an `interval` of operators before a release
// barrier hands its upstream to the thread's release drain (RippleCore's `ReleaseDrain`): the barrier keeps a
// placeholder that frees nothing, and only the outermost hand-over on the thread frees what the drain holds, in a
// loop. So freeing a chain of any depth needs the stack of `2 × interval` operators (one interval, plus one more
// where `then` joins chains of unequal depth), on any thread, and nothing is left once the last release returns.

/// Deep recipes' use of the thread's release drain (see the invariants above).
@usableFromInline
enum RecipeRelease {
    /// Every this many levels an operator's upstream is freed from the drain rather than in place.
    @inlinable static var interval: UInt8 { 64 }

    /// Frees `signal` from the drain, leaving a placeholder in its place. Unspecialised: it runs once per
    /// `interval` levels.
    static func release<Value, Failure>(_ signal: inout Signal<Value, Failure>) {
        // Swapped out first, so that the drain holds the only reference.
        let taken = signal
        signal = Signal(body: .fused { _, _, _, _ in .nothing }, depth: 0)
        ReleaseDrain.release(value: consume taken)
    }

    /// Whether the calling thread's drain holds nothing and runs no loop (for tests).
    static var isIdle: Bool {
        ReleaseDrain.isIdle
    }
}
