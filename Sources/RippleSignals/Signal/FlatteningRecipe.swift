import RippleCore

// Invariants:
// - The recipe of `flatMap`, `flatMapLatest` and `switchToLatest` is one `FlatteningRecipe`: the transform and the
//   upstream, which its fused closure captures alone (a closure capturing one object needs no context of its own,
//   so holding them here costs no allocation). Its `deinit` frees them counted, as a `HeldClosure` does (see
//   HeldClosure.swift): a transform or an upstream capturing signals (`.just(0).flatMap { _ in previous }`,
//   `map { _ in previous }.switchToLatest()`, `.just(previous).switchToLatest()`) nests recipes that way.
// - Swift frees a class's fields only after every `deinit` of its hierarchy has returned, so what is freed counted
//   is held in optional fields that `deinit` empties. Those fields have a layout that does not depend on the generic
//   parameters (closures): the `deinit` runs unspecialised, and emptying an `Input?` or a `Signal<Input, Failure>`
//   there looks that type's metadata up (~300 instructions each; callgrind, FlatMapsRecipe). Exactly one of
//   `fused`, `action` or a subclass's value holds the upstream.
// - The value of a `just` upstream is held by a subclass: a constant (`FlatteningRecipeOverJust`), freed after
//   the count, under a transform (its values are the transform's inputs, not recipes flattened as they are); an
//   optional emptied in the count (`SwitchingRecipeOverJust`, paying that lookup) under `switchToLatest`, whose
//   `just` value is itself a signal.

/// The recipe of a flattening operator (see the invariants above). Its members are `final`: reached from inlinable
/// code, an overridable one would be called through the class's table, unspecialised. `@unchecked Sendable`: the
/// fields are written only by `init` and `deinit`.
@usableFromInline @_fixed_layout
class FlatteningRecipe<Input: Sendable, Output: Sendable, Failure: Error>: @unchecked Sendable {
    /// Nil for `switchToLatest` (the values are the inner signals).
    @usableFromInline @exclusivity(unchecked) final var transform: (@Sendable (Input) -> Signal<Output, Failure>)?
    @usableFromInline @exclusivity(unchecked) final var fused: Signal<Input, Failure>.Fused?
    @usableFromInline @exclusivity(unchecked) final var action:
        (@Sendable (SignalSubscriber<Input, Failure>) -> Disposer)?
    /// The upstream's depth (see Recipe.swift).
    @usableFromInline final let depth: UInt8

    @inlinable
    init(transform: (@Sendable (Input) -> Signal<Output, Failure>)?, fused: Signal<Input, Failure>.Fused?,
         action: (@Sendable (SignalSubscriber<Input, Failure>) -> Disposer)?, depth: UInt8) {
        self.transform = transform
        self.fused = fused
        self.action = action
        self.depth = depth
    }

    /// The recipe of an operator with `transform` over `upstream` (as the operator captures it: `asUpstream`).
    @inlinable
    static func make(transform: (@Sendable (Input) -> Signal<Output, Failure>)?,
                     over upstream: Signal<Input, Failure>) -> FlatteningRecipe {
        switch upstream.body {
        case .fused(let fused):
            FlatteningRecipe(transform: transform, fused: fused, action: nil, depth: upstream.depth)
        case .action(let action):
            FlatteningRecipe(transform: transform, fused: nil, action: action, depth: upstream.depth)
        case .just(let value):
            if transform == nil {
                SwitchingRecipeOverJust(value: value, depth: upstream.depth)
            } else {
                FlatteningRecipeOverJust(transform: transform, value: value, depth: upstream.depth)
            }
        }
    }

    /// The upstream signal, rebuilt (no allocation) to be subscribed.
    @inlinable
    final var upstream: Signal<Input, Failure> {
        if let fused { return Signal(body: .fused(fused), depth: depth) }
        if let action { return Signal(body: .action(action), depth: depth) }
        // Neither: made by `make` over a `just`, so the object's own class is one of the two below.
        if transform != nil {
            let recipe = unsafeDowncast(self, to: FlatteningRecipeOverJust<Input, Output, Failure>.self)
            return Signal(body: .just(recipe.value), depth: depth)
        }
        let recipe = unsafeDowncast(self, to: SwitchingRecipeOverJust<Input, Output, Failure>.self)
        return Signal(body: .just(recipe.value!), depth: depth)
    }

    deinit {
        RecipeNesting.release(inPlace: { releaseHeld() }, orTake: { takeHeld() })
    }

    /// Frees what this recipe holds (from `deinit`, counted).
    func releaseHeld() {
        transform = nil
        fused = nil
        action = nil
    }

    /// Empties this recipe into a value for the release drain (from `deinit`, at the nesting limit).
    func takeHeld() -> Any {
        (transform.take(), fused.take(), action.take())
    }
}

/// A `FlatteningRecipe` with a transform over a `just`: holds its value, freed after the count (see the invariants
/// above).
@usableFromInline @_fixed_layout
final class FlatteningRecipeOverJust<Input: Sendable, Output: Sendable, Failure: Error>:
    FlatteningRecipe<Input, Output, Failure>, @unchecked Sendable
{
    @usableFromInline let value: Input

    @inlinable
    init(transform: (@Sendable (Input) -> Signal<Output, Failure>)?, value: Input, depth: UInt8) {
        self.value = value
        super.init(transform: transform, fused: nil, action: nil, depth: depth)
    }
}

/// A `switchToLatest` over a `just`: holds its value (a signal), freed in the count (see the invariants above).
@usableFromInline @_fixed_layout
final class SwitchingRecipeOverJust<Input: Sendable, Output: Sendable, Failure: Error>:
    FlatteningRecipe<Input, Output, Failure>, @unchecked Sendable
{
    /// Nil only once `deinit` has taken it.
    @usableFromInline @exclusivity(unchecked) var value: Input?

    @inlinable
    init(value: Input, depth: UInt8) {
        self.value = value
        super.init(transform: nil, fused: nil, action: nil, depth: depth)
    }

    override func releaseHeld() {
        super.releaseHeld()
        value = nil
    }

    override func takeHeld() -> Any {
        (super.takeHeld(), value.take())
    }
}
