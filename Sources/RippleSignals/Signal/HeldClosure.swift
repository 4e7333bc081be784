import RippleCore

// Invariants:
// - A closure a recipe takes from its caller (a flatMap's transform, a catch handler) may capture other recipes
//   (`s = .just(0).flatMap { _ in previous }`, repeated): freeing the recipe frees the closure, which frees the
//   recipe it captured from inside its own release, and so on. The release barriers (Recipe.swift) cannot see that
//   depth: they count operators stacked on an upstream, not signals captured by closures.
// - So such a recipe holds what it captured in an object of ours (a `HeldClosure`, or a `FlatteningRecipe`: see
//   FlatteningRecipe.swift), whose `deinit` counts the held releases in progress on the calling thread
//   (`RecipeNesting.level`): below `RecipeNesting.limit` it frees what it holds in place, one level deeper; at the
//   limit it hands it, boxed in a `RestartedRelease`, to the thread's release drain (RippleCore's `ReleaseDrain`),
//   and the box frees it counting from zero. Only the outermost hand-over on a thread frees what the drain holds, in
//   a loop; so a nest of any depth recurses through at most `2 × limit` held objects (the loop runs at the limit),
//   each with what lies between it and the next (at most two release-barrier intervals of operators), and nothing
//   is left once the outermost release returns.
// - Only a nest past the limit pays for the box and the drain; every held object pays a thread-local lookup when
//   freed. Subscriptions copy the closure out when they start, so values never go through the holder.

/// The calling thread's count of held releases in progress (see the invariants above). Per thread, so unsynchronised.
///
/// Invariant: reached only through `withCurrent`, on its own thread, whose thread-local keeps it alive while the
/// thread runs; so it is borrowed without a reference count (a retain and release per freed recipe otherwise).
final class RecipeNesting {
    /// Held objects freed in place, one inside the other, before the next hands its contents to the release drain.
    /// Small: between two counted levels a path may cross a captured signal's own operators, up to 63 that no
    /// barrier cuts, so a count of 8 bounds a path at 2 × 8 × 64 operators; 32 let a nest of signals carrying 60
    /// maps each overflow a 512 KiB thread (debug build). A chain of up to 8 flattening operators still frees with
    /// no hand-over.
    static var limit: Int { 8 }

    @exclusivity(unchecked) var level = 0

    /// Frees what a held object holds, from its `deinit`: `releaseInPlace` empties it, counted one level deeper, or,
    /// at the limit, `take` empties it into a value that the release drain frees, counting from zero.
    @inline(__always)
    static func release(inPlace releaseInPlace: () -> Void, orTake take: () -> Any) {
        recipeNestings.unretained(orMake: { RecipeNesting() })._withUnsafeGuaranteedRef { nesting in
            if nesting.level < limit {
                nesting.level &+= 1
                releaseInPlace()
                nesting.level &-= 1
            } else {
                // The box is an object already: handed over as one, not boxed again by `release(value:)`.
                ReleaseDrain.release(Unmanaged.passRetained(RestartedRelease(take()) as AnyObject))
            }
        }
    }

    /// Whether no held release is in progress on the calling thread (for tests).
    static var isIdle: Bool {
        guard let nesting = recipeNestings.unretained else { return true }
        return nesting._withUnsafeGuaranteedRef { $0.level == 0 }
    }
}

let recipeNestings = ThreadLocal<RecipeNesting>()

/// What a held object handed to the release drain: its release starts a new count (see the invariants above).
/// `@unchecked Sendable`: `held` is written only by `deinit`.
final class RestartedRelease: @unchecked Sendable {
    @exclusivity(unchecked) private var held: Any?

    init(_ held: Any) {
        self.held = held
    }

    deinit {
        recipeNestings.unretained(orMake: { RecipeNesting() })._withUnsafeGuaranteedRef { nesting in
            let outer = nesting.level
            nesting.level = 0
            held = nil
            nesting.level = outer
        }
    }
}

/// A caller's closure held by a recipe whose own closure captures more than it (see the invariants above).
/// `@unchecked Sendable`: `stored` is written only by `deinit`.
final class HeldClosure<Input, Output>: @unchecked Sendable {
    /// Nil only once `deinit` has taken it. Optional so that `deinit` can free it counted or hand it on: a class's
    /// fields are otherwise freed after every `deinit` of its hierarchy has returned, outside the count.
    @exclusivity(unchecked) private var stored: (@Sendable (Input) -> Output)?

    init(_ closure: @escaping @Sendable (Input) -> Output) {
        stored = closure
    }

    /// The closure (a copy: a subscription keeps it without reaching through the holder per call).
    var closure: @Sendable (Input) -> Output {
        stored!
    }

    deinit {
        RecipeNesting.release(inPlace: { stored = nil }, orTake: { stored.take() as Any })
    }
}
