import RippleCore

extension Signal {
    /// Maps each value to a signal, subscribes to it, and forwards the values of every inner signal.
    ///
    /// The first error, from the source or any inner signal, ends the result and disposes the rest. The result
    /// completes once the source *and* every inner signal have completed (GYSignal completes on the first one).
    @inlinable
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        mergingFlatMap(transform)
    }

    /// The body of every `flatMap` overload.
    @inlinable
    func mergingFlatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        // Inlinable so that the per-subscription state and its callbacks are specialised in the caller's module: no
        // generic metadata lookups when subscribing or per value. Fused (see `FusedState`): no subscriber of its own.
        // The transform and upstream are held by one `FlatteningRecipe`, freed counted (see FlatteningRecipe.swift).
        let recipe = FlatteningRecipe.make(transform: transform, over: asUpstream)
        return .fused(depth: depthAbove) { value, keep, error, complete in
            FlattenMapState(transform: recipe.transform!, value: value, keep: keep, error: error, complete: complete)
                .start(recipe.upstream)
        }
    }
}

/// One subscription of `flatMap`: the members that complete the result together (the source and the inner signals
/// still running) and their disposers; the downstream's callbacks and the ordered hand-off to them are inherited
/// (see `FusedState`). The one object the source's and every inner's callbacks capture (a closure capturing one
/// object needs no allocation of its own). `@unchecked Sendable`: the mutable state is guarded by the inherited
/// `lock`.
@usableFromInline @_fixed_layout
final class FlattenMapState<Input: Sendable, Output: Sendable, Failure: Error>: FusedState<Output, Failure>,
    @unchecked Sendable
{
    @usableFromInline let transform: @Sendable (Input) -> Signal<Output, Failure>
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var members = MemberSlots()

    @inlinable
    init(transform: @escaping @Sendable (Input) -> Signal<Output, Failure>,
         value: @escaping @Sendable (Output) -> Void, keep: (@Sendable (Output) -> Bool)?,
         error: @escaping @Sendable (Failure) -> Void, complete: @escaping @Sendable () -> Void) {
        self.transform = transform
        super.init(value: value, keep: keep, error: error, complete: complete)
    }

    deinit {
        // Freed before a terminal event or disposal: every producer let go of its subscriber (see `FusedState`).
        if isOpen { releaseInputs() }
    }

    /// Subscribes to the source with raw callbacks (a `just` or map/filter source then needs no subscriber of its
    /// own); they own this state. Returns the disposer for the downstream (see `FusedState`).
    @inlinable
    func start(_ upstream: Signal<Input, Failure>) -> Disposer {
        let trampoline = enterLevel()
        let subscription = upstream.attach(
            value: { self.receive($0) },
            error: { self.fail($0) },
            complete: { self.leave(MemberSlots.sourceID) })
        trampoline.with { $0.level &-= 1 }
        lock.lock()
        guard isOpen else {
            lock.unlock()
            subscription.dispose()
            return .ended  // Ended while subscribing (a `just` source and `just` inners, an error).
        }
        members.store(subscription, for: MemberSlots.sourceID)
        lock.unlock()
        return WeakDisposer(self)
    }

    /// A value of the source: its inner signal joins the members and is subscribed, or a `just` is delivered at
    /// once (no member to enter or leave, nothing to subscribe).
    @inlinable
    func receive(_ value: Input) {
        let inner = transform(value)
        lock.lock()
        guard isOpen else { return lock.unlock() }
        if let just = inner.justValue { return emit(just) }  // releases `lock`
        let id = members.enter()
        lock.unlock()
        if innerMustWait() {
            subscribeInnerLater {
                // Ended meanwhile: not subscribed at all.
                self.lock.lock()
                let open = self.isOpen
                self.lock.unlock()
                if open { self.subscribe(inner, as: id) }
            }
        } else {
            subscribe(inner, as: id)
        }
    }

    /// Subscribes inner signal `inner` as member `id`, at this state's level at least (see `SubscriptionTrampoline`);
    /// disposes it if the result ended meanwhile.
    @inlinable
    func subscribe(_ inner: Signal<Output, Failure>, as id: Int) {
        let subscription = subscribing(above: level) {
            inner.attach(value: { self.forward($0) }, error: { self.fail($0) }, complete: { self.leave(id) })
        }
        lock.lock()
        guard isOpen else {
            lock.unlock()
            subscription.dispose()
            return
        }
        members.store(subscription, for: id)
        lock.unlock()
    }

    /// Member `id` completed; the result completes once the source and every inner signal have.
    @inlinable
    func leave(_ id: Int) {
        lock.lock()
        guard isOpen, members.leave(id), members.allLeft else { return lock.unlock() }
        emitCompletion()
    }

    @usableFromInline
    override func releaseInputs() {
        lock.lock()
        let taken = members.takeAll()
        lock.unlock()
        if let source = taken.source { release(source) }
        for slot in taken.members {
            if let disposer = slot.disposer { release(disposer) }
        }
    }
}

// Failure types as Combine mixes them: a source that cannot fail takes inner signals that can (`node.signal.flatMap
// { query in fetch(query) }`), and inner signals that cannot fail fit a source that can. The fourth overload, both
// `Never`, only settles which of the others applies.
extension Signal where Failure == Never {
    /// `flatMap(_:)` from a source that cannot fail into inner signals that can: the result fails with theirs.
    @inlinable
    public func flatMap<Output: Sendable, NewFailure: Error>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, NewFailure>
    ) -> Signal<Output, NewFailure> {
        setFailureType(to: NewFailure.self).mergingFlatMap(transform)
    }

    /// `flatMap(_:)` where neither the source nor the inner signals can fail.
    @inlinable
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Never> {
        mergingFlatMap(transform)
    }
}

extension Signal {
    /// `flatMap(_:)` into inner signals that cannot fail: only the source's error ends the result.
    ///
    /// Disfavoured so that an inner signal whose failure type is left to inference (`flatMap { .just($0) }`) takes
    /// the source's, as before this overload existed.
    @inlinable @_disfavoredOverload
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Failure> {
        mergingFlatMap { transform($0).setFailureType(to: Failure.self) }
    }
}
