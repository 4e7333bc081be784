// Invariants:
// - A single-upstream operator keeps its upstream `Signal` and its parameters in one `Recipe` box, and its body's
//   closure captures only that box: a closure capturing one object allocates no context of its own, so the box
//   takes the place of the context the closure would have allocated (no allocation added).
// - A recipe's `depth` is its upstream's plus one (the deeper upstream's, for `then`); a signal made any other way
//   (an action, `just`, a multi-input operator) is at depth 0.
// - Freeing a recipe frees its upstream, whose box frees its own upstream, and so on: a recursion as deep as the
//   chain (the Swift runtime's release, ~3,600 levels on a 512 KiB stack in release). So a box whose upstream is
//   at a depth that is a multiple of `RecipeRelease.interval` hands that upstream to the thread's release drain
//   instead of dropping it in place: at most two intervals of boxes are freed recursively on any path, and the
//   drain frees the rest from a loop (see `RecipeRelease`). Other boxes pay one test of a stored field when freed.
// - The same depth spaces out the stack checks of a fused map/filter chain: `Signal.attach` checks at every
//   `Signal.fusedCheckInterval`-th level rather than at each (see `Signal.attach(value:keep:error:complete:)`).

/// A single-upstream operator's recipe: its upstream and its parameters (see the invariants above).
/// `@unchecked Sendable`: `upstream` is written only by `deinit`; `parameters` is immutable.
@usableFromInline @_fixed_layout
final class Recipe<Value: Sendable, Failure: Error, Parameters>: @unchecked Sendable {
    /// Declared first, so its offset is fixed in the unspecialised `deinit` (a field after `upstream`, whose size
    /// depends on `Value`, would be found through the class's metadata).
    @usableFromInline let depth: UInt32
    /// `var` only so that `deinit` can move it out; no dynamic exclusivity checks (it is never written otherwise).
    @usableFromInline @exclusivity(unchecked) var upstream: Signal<Value, Failure>
    @usableFromInline let parameters: Parameters

    @inlinable
    init(_ upstream: Signal<Value, Failure>, _ parameters: Parameters) {
        depth = upstream.depth &+ 1
        self.upstream = upstream
        self.parameters = parameters
    }

    deinit {
        if (depth &- 1) % RecipeRelease.interval == 0 && depth > 1 {
            RecipeRelease.release(&upstream)
        }
    }
}

extension Signal {
    /// A fused map/filter chain checks the stack at every this many levels (see `attach(value:keep:error:complete:)`).
    @inlinable static var fusedCheckInterval: UInt32 { 16 }
}

/// `then`'s recipe: two upstreams, either of which may be a deep chain (`page.then(next)` in a loop, or
/// `first.then(chain)`). `@unchecked Sendable` as `Recipe`.
@usableFromInline @_fixed_layout
final class PairRecipe<Value: Sendable, Failure: Error, Output: Sendable>: @unchecked Sendable {
    @usableFromInline let depth: UInt32
    @usableFromInline @exclusivity(unchecked) var first: Signal<Value, Failure>
    @usableFromInline @exclusivity(unchecked) var second: Signal<Output, Failure>

    @inlinable
    init(_ first: Signal<Value, Failure>, _ second: Signal<Output, Failure>) {
        depth = max(first.depth, second.depth) &+ 1
        self.first = first
        self.second = second
    }

    deinit {
        if first.depth % RecipeRelease.interval == 0 && first.depth != 0 {
            RecipeRelease.release(&first)
        }
        if second.depth % RecipeRelease.interval == 0 && second.depth != 0 {
            RecipeRelease.release(&second)
        }
    }
}
