// Invariants:
// - A signal's `depth` counts the operators stacked on its source, from 1 to `RecipeRelease.interval` and round
//   again (`depthAbove`; for an operator with several inputs — `then`, `merge`, `zip`, `combineLatest` — from the
//   largest of its inputs' counts); a signal made any other way (an action, `just`) is at 0. One byte is enough:
//   only the position within an interval matters.
// - Freeing a recipe frees its upstream, whose closure frees its own upstream, and so on: a recursion as deep as the
//   chain, in the Swift runtime's release (~3,600 operators overflowed a 512 KiB stack in release). So an operator
//   stacked on an upstream at depth `RecipeRelease.interval` (every interval-th operator) captures it behind a
//   release barrier (`asUpstream`): a box whose `deinit` hands the upstream to the thread's release drain instead of
//   freeing it in place. On any path through a recipe the count rises by one per operator, except at `then`,
//   which may skip ahead; so fewer than two intervals of operators lie between barriers, and only they are freed
//   recursively; the drain frees the rest from a loop.
// - Operators between barriers capture their upstream as before: a closure context the compiler destroys with
//   specialised code. A box per operator instead (a generic class) cost ~500 instructions per operator freed, its
//   unspecialised `deinit` looking up the metadata of `Signal<Value, Failure>` (callgrind, MapFilterCreating:
//   10,722 → 16,852 per chain). A barrier costs one allocation and one forwarding call per subscription per interval.
// - The same depth spaces out the cuts of a fused map/filter chain (see `attach(value:keep:error:complete:)`).

extension Signal {
    /// This signal as an operator stacked on it captures it: itself, or behind a release barrier at every
    /// `RecipeRelease.interval`-th level (see the invariants above).
    @inlinable
    var asUpstream: Signal {
        if depth != RecipeRelease.interval { return self }
        return behindReleaseBarrier()
    }

    /// The depth of an operator stacked on this signal: one more, from 1 to `RecipeRelease.interval`.
    @inlinable
    var depthAbove: UInt8 {
        depth % RecipeRelease.interval &+ 1
    }

    /// The inputs of an operator with several, as it captures them (each `asUpstream`), and its depth: one more
    /// than its deepest input's (see the invariants above).
    static func upstreams(_ inputs: [Signal]) -> (inputs: [Signal], depth: UInt8) {
        (inputs.map(\.asUpstream), inputs.map(\.depthAbove).max() ?? 1)
    }

    /// A fused map/filter chain is cut by a subscriber at every this many levels (see
    /// `attach(value:keep:error:complete:)`).
    @inlinable static var fusedCutInterval: UInt8 { 16 }

    /// The same signal at the same depth, holding this one through a `ReleaseBarrier`. Out of line and
    /// unspecialised: it runs once per interval when building, and its closures once per interval when subscribing.
    @usableFromInline
    func behindReleaseBarrier() -> Signal {
        switch body {
        case .just:
            return self
        case .fused:
            let barrier = ReleaseBarrier(self)
            return .fused(depth: depth) { value, keep, error, complete in
                barrier.upstream.attach(value: value, keep: keep, error: error, complete: complete)
            }
        case .action:
            let barrier = ReleaseBarrier(self)
            return Signal(depth: depth) { subscriber in
                guard case .action(let action) = barrier.upstream.body else { return .nothing }
                return action(subscriber)
            }
        }
    }
}

/// Holds an upstream for the operators above it; frees it through the release drain (see the invariants above).
/// `@unchecked Sendable`: `upstream` is written only by `deinit`.
final class ReleaseBarrier<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @exclusivity(unchecked) var upstream: Signal<Value, Failure>

    init(_ upstream: Signal<Value, Failure>) {
        self.upstream = upstream
    }

    deinit {
        RecipeRelease.release(&upstream)
    }
}

/// `Signal.upstreams(_:)` for the parameter-pack forms of `zip` and `combineLatest`.
func upstreams<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> (inputs: (repeat Signal<each Input, Failure>), depth: UInt8) {
    var depth: UInt8 = 1
    for input in repeat each inputs { depth = max(depth, input.depthAbove) }
    return ((repeat (each inputs).asUpstream), depth)
}
