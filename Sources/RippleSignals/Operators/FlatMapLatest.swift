import RippleCore

// Invariants: at most one inner signal is subscribed at a time; a value of the source disposes the current inner
// before its own inner can send, and a value of an inner is forwarded only while that inner is still the latest
// (checked under the state's lock, and handed to the downstream in the order accepted), so a stale inner's value
// never arrives after a newer inner's. The first error, from the source or the latest inner, ends the result; it
// completes once the source has completed and the latest inner too. Fused, with the ordered hand-off and the
// ownership of every fused multi-input operator (see `FusedState`).

extension Signal {
    /// Maps each value to a signal and forwards the values of the latest one only (switch to latest): subscribing
    /// to a new inner signal disposes the previous one, so a slow, stale result never arrives after a newer one.
    ///
    /// ```swift
    /// query.signal.flatMapLatest { text in search(text) }   // only the latest query's results
    /// ```
    @inlinable
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        latestFlatMap(transform)
    }

    /// The body of every `flatMapLatest` overload; inlinable so that the state is specialised in the caller. No
    /// `transform` (for `switchToLatest`): the values are the inner signals.
    @inlinable
    func latestFlatMap<Output: Sendable>(
        _ transform: (@Sendable (Value) -> Signal<Output, Failure>)?
    ) -> Signal<Output, Failure> {
        // The transform and upstream are held by one `FlatteningRecipe`, freed counted (see FlatteningRecipe.swift).
        let recipe = FlatteningRecipe.make(transform: transform, over: asUpstream)
        return .fused(depth: depthAbove) { value, keep, error, complete in
            SwitchToLatestState(transform: recipe.transform, value: value, keep: keep, error: error,
                                complete: complete)
                .start(recipe.upstream)
        }
    }

    /// Forwards the values of the latest inner signal this signal sent (`flatMapLatest { $0 }`).
    @inlinable
    public func switchToLatest<Output: Sendable>() -> Signal<Output, Failure> where Value == Signal<Output, Failure> {
        // No identity closure: calling one per value cost ~10 instructions (the signal is copied out and back).
        latestFlatMap(nil)
    }
}

// Failure types mixed as for `flatMap` (see there).
extension Signal where Failure == Never {
    /// `flatMapLatest(_:)` from a source that cannot fail into inner signals that can.
    @inlinable
    public func flatMapLatest<Output: Sendable, NewFailure: Error>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, NewFailure>
    ) -> Signal<Output, NewFailure> {
        setFailureType(to: NewFailure.self).latestFlatMap(transform)
    }

    /// `flatMapLatest(_:)` where neither the source nor the inner signals can fail.
    @inlinable
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Never> {
        latestFlatMap(transform)
    }
}

extension Signal {
    /// `flatMapLatest(_:)` into inner signals that cannot fail. Disfavoured for the reason given at `flatMap`'s.
    @inlinable @_disfavoredOverload
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Failure> {
        latestFlatMap { transform($0).setFailureType(to: Failure.self) }
    }
}

/// One subscription of `flatMapLatest`: which inner is the latest (a generation number) and the disposers of the
/// source and of the latest inner; the downstream's callbacks and the hand-off to them are inherited (see
/// `FusedState`). `@unchecked Sendable`: the mutable state is guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
final class SwitchToLatestState<Input: Sendable, Output: Sendable, Failure: Error>: FusedState<Output, Failure>,
    @unchecked Sendable
{
    /// Nil when the source's values are the inner signals (`switchToLatest`).
    @usableFromInline let transform: (@Sendable (Input) -> Signal<Output, Failure>)?
    // Guarded by `lock`.
    /// Bumped by every source value; an inner forwards only while its generation is the current one.
    @usableFromInline @exclusivity(unchecked) var generation = 0
    @usableFromInline @exclusivity(unchecked) var source: Disposer?
    @usableFromInline @exclusivity(unchecked) var inner: Disposer?
    @usableFromInline @exclusivity(unchecked) var innerActive = false
    @usableFromInline @exclusivity(unchecked) var sourceDone = false

    @inlinable
    init(transform: (@Sendable (Input) -> Signal<Output, Failure>)?,
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
            complete: { self.sourceCompleted() })
        trampoline.with { $0.level &-= 1 }
        lock.lock()
        guard isOpen else {
            lock.unlock()
            subscription.dispose()
            return .ended  // Ended while subscribing (an inner `just` of a `just` source, an error).
        }
        // Moved, not copied: no retain and release per subscription.
        source = consume subscription
        lock.unlock()
        return WeakDisposer(self)
    }

    /// A value of the source: the previous inner is superseded (and disposed), the new one subscribed, or a `just`
    /// delivered at once.
    @inlinable
    func receive(_ value: Input) {
        // Without a transform `Input` is `Signal<Output, Failure>`: specialised, the cast is a plain copy.
        let next = if let transform { transform(value) } else { value as! Signal<Output, Failure> }
        lock.lock()
        guard isOpen else { return lock.unlock() }
        generation &+= 1
        let current = generation
        let previous = inner
        inner = nil
        if let just = next.justValue {
            innerActive = false
            emit(just)  // releases `lock`
            previous?.dispose()
            return
        }
        innerActive = true
        lock.unlock()
        previous?.dispose()
        if innerMustWait() {
            subscribeInnerLater {
                // Superseded or ended meanwhile: not subscribed at all.
                self.lock.lock()
                let superseded = self.generation != current || !self.isOpen
                self.lock.unlock()
                if !superseded { self.subscribe(next, generation: current) }
            }
        } else {
            subscribe(next, generation: current)
        }
    }

    /// Subscribes inner signal `next` of generation `current`, at this state's level at least (see
    /// `SubscriptionTrampoline`); disposes it if a newer inner superseded it or the result ended meanwhile.
    @inlinable
    func subscribe(_ next: Signal<Output, Failure>, generation current: Int) {
        let link = LatestInnerLink(state: self, generation: current)
        let subscription = subscribing(above: level) {
            next.attach(value: { link.value($0) }, error: { link.error($0) }, complete: { link.complete() })
        }
        lock.lock()
        guard generation == current, isOpen else {
            lock.unlock()
            subscription.dispose()
            return
        }
        inner = consume subscription
        lock.unlock()
    }

    /// A value of the inner of generation `from`: forwarded in order unless a newer inner superseded it.
    @inlinable
    func receive(inner value: Output, from: Int) {
        lock.lock()
        guard from == generation, isOpen else { return lock.unlock() }
        emit(value)
    }

    @inlinable
    func innerFailed(_ error: Failure, from: Int) {
        lock.lock()
        guard from == generation, isOpen else { return lock.unlock() }
        emitError(error)
    }

    @inlinable
    func innerCompleted(from: Int) {
        lock.lock()
        guard from == generation, isOpen else { return lock.unlock() }
        innerActive = false
        inner = nil
        guard sourceDone else { return lock.unlock() }
        emitCompletion()
    }

    @inlinable
    func sourceCompleted() {
        lock.lock()
        guard isOpen else { return lock.unlock() }
        sourceDone = true
        source = nil
        guard !innerActive else { return lock.unlock() }
        emitCompletion()
    }

    @inlinable
    override func releaseInputs() {
        lock.lock()
        let taken = (source, inner)
        source = nil
        inner = nil
        lock.unlock()
        if let source = taken.0 { release(source) }
        if let inner = taken.1 { release(inner) }
    }
}

/// The callbacks of one inner signal of `flatMapLatest`, in one object so that its three closures capture only it.
/// It owns the state (see the ownership note at the top of the file). `@unchecked Sendable`: immutable.
@usableFromInline @_fixed_layout
final class LatestInnerLink<Input: Sendable, Output: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline let state: SwitchToLatestState<Input, Output, Failure>
    @usableFromInline let generation: Int

    @inlinable
    init(state: SwitchToLatestState<Input, Output, Failure>, generation: Int) {
        self.state = state
        self.generation = generation
    }

    @inlinable func value(_ value: Output) { state.receive(inner: value, from: generation) }
    @inlinable func error(_ error: Failure) { state.innerFailed(error, from: generation) }
    @inlinable func complete() { state.innerCompleted(from: generation) }
}
