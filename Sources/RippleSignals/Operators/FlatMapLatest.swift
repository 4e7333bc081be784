import RippleCore

// Invariants: at most one inner signal is subscribed at a time; a value of the source disposes the current inner
// before its own inner can send, and a value of an inner is forwarded only while that inner is still the latest
// (checked under the state's lock, and handed to the downstream in the order accepted), so a stale inner's value
// never arrives after a newer inner's. The first error, from the source or the latest inner, ends the result; it
// completes once the source has completed and the latest inner too.
//
// Fused: the operator makes no subscriber of its own. Its state calls the downstream's raw callbacks following the
// grammar itself (one emission at a time, in the order accepted, at most one terminal event, nothing after
// disposal: the ordered hand-off below), so a chain of switch levels has one object per level per subscription
// where a subscriber, its core and the state made three (callgrind and malloc figures in BENCHMARKS.md).
//
// Ownership, the rule of every multi-input operator (see `CombiningState`): the state is owned only by its inputs'
// callbacks (the source's and the latest inner's), and owns the downstream's callbacks. The disposer handed
// downstream does not own it (`WeakDisposer`), so once every producer has let go of its subscriber the state is
// freed, frees the downstream's callbacks, and the disposer reports the subscription ended. A subscription that
// ended while it was being made (a `just` source, inner `just`s) hands out the shared `Disposer.ended` instead, and
// its state is freed as `subscribe` returns.

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
        let upstream = asUpstream
        return .fused(depth: depthAbove) { value, keep, error, complete in
            SwitchToLatestState(transform: transform, value: value, keep: keep, error: error, complete: complete)
                .start(upstream)
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

let switchStateCounter = LiveObjectCounter("Signal.SwitchToLatestState")

/// Counts a switch state made by its inlinable `init`, which cannot name the module's counter.
@usableFromInline
func countSwitchStateMade() {
    switchStateCounter.increment()
}

/// One subscription of `flatMapLatest`: which inner is the latest (a generation number), the disposers of the
/// source and of the latest inner, the downstream's callbacks and the ordered hand-off to them (see the invariants
/// at the top of the file). A ``Disposer`` itself, reached by the downstream only through a `WeakDisposer`.
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the hand-off's batch only by the emitting thread.
@usableFromInline @_fixed_layout
final class SwitchToLatestState<Input: Sendable, Output: Sendable, Failure: Error>: Disposer, @unchecked Sendable {
    @usableFromInline
    enum Emission {
        case value(Output)
        case error(Failure)
        case complete
    }

    @usableFromInline let lock = RawLock()
    /// Nil when the source's values are the inner signals (`switchToLatest`).
    @usableFromInline let transform: (@Sendable (Input) -> Signal<Output, Failure>)?
    @usableFromInline let onValue: @Sendable (Output) -> Void
    /// The predicate of the filters right below (see `Signal.fused(_:)`); nil keeps every value.
    @usableFromInline let keep: (@Sendable (Output) -> Bool)?
    @usableFromInline let onError: @Sendable (Failure) -> Void
    @usableFromInline let onComplete: @Sendable () -> Void
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks.
    /// Bumped by every source value; an inner forwards only while its generation is the current one.
    @usableFromInline @exclusivity(unchecked) var generation = 0
    @usableFromInline @exclusivity(unchecked) var source: Disposer?
    @usableFromInline @exclusivity(unchecked) var inner: Disposer?
    @usableFromInline @exclusivity(unchecked) var innerActive = false
    @usableFromInline @exclusivity(unchecked) var sourceDone = false
    /// A terminal event was accepted: nothing more is.
    @usableFromInline @exclusivity(unchecked) var ended = false
    @usableFromInline @exclusivity(unchecked) var disposed = false
    /// Some thread is calling the downstream; others queue behind it in `pending`.
    @usableFromInline @exclusivity(unchecked) var emitting = false
    @usableFromInline @exclusivity(unchecked) var pending: [Emission] = []

    @inlinable
    init(transform: (@Sendable (Input) -> Signal<Output, Failure>)?,
         value: @escaping @Sendable (Output) -> Void, keep: (@Sendable (Output) -> Bool)?,
         error: @escaping @Sendable (Failure) -> Void, complete: @escaping @Sendable () -> Void) {
        self.transform = transform
        onValue = value
        self.keep = keep
        onError = error
        onComplete = complete
        super.init()
        countSwitchStateMade()
    }

    deinit {
        // Freed before a terminal event or disposal: every producer let go of its subscriber. Whatever is still
        // subscribed is released (no lock: nothing else references this state any more).
        if !ended && !disposed {
            release(source, inner)
        }
        switchStateCounter.decrement()
    }

    /// Subscribes to the source with raw callbacks (a `just` or map/filter source then needs no subscriber of its
    /// own); they own this state. Returns the disposer for the downstream.
    @inlinable
    func start(_ upstream: Signal<Input, Failure>) -> Disposer {
        let subscription = upstream.attach(
            value: { self.receive($0) },
            error: { self.sourceFailed($0) },
            complete: { self.sourceCompleted() })
        lock.lock()
        if ended || disposed {
            lock.unlock()
            subscription.dispose()
            // Ended while subscribing (an inner `just` of a `just` source, an error): nothing to hand out.
            return .ended
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
        guard !ended, !disposed else { return lock.unlock() }
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
        let link = LatestInnerLink(state: self, generation: current)
        let subscription = next.attach(value: { link.value($0) }, error: { link.error($0) },
                                       complete: { link.complete() })
        lock.lock()
        guard generation == current, !disposed, !ended else {
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
        guard from == generation, !ended, !disposed else { return lock.unlock() }
        emit(value)
    }

    @inlinable
    func innerFailed(_ error: Failure, from: Int) {
        lock.lock()
        guard from == generation, !ended, !disposed else { return lock.unlock() }
        emitError(error)
    }

    @inlinable
    func innerCompleted(from: Int) {
        lock.lock()
        guard from == generation, !ended, !disposed else { return lock.unlock() }
        innerActive = false
        guard sourceDone else { return lock.unlock() }
        emitCompletion()
    }

    @inlinable
    func sourceFailed(_ error: Failure) {
        lock.lock()
        guard !ended, !disposed else { return lock.unlock() }
        emitError(error)
    }

    @inlinable
    func sourceCompleted() {
        lock.lock()
        guard !ended, !disposed else { return lock.unlock() }
        sourceDone = true
        guard !innerActive else { return lock.unlock() }
        emitCompletion()
    }

    // MARK: - The ordered hand-off

    /// Called with `lock` held; releases it. Calls the downstream at once unless another thread (or this one,
    /// re-entrantly) is calling it: then that call delivers `output` after its own, in order.
    @inlinable
    func emit(_ output: Output) {
        if emitting {
            enqueue(value: output)
            return lock.unlock()
        }
        emitting = true
        lock.unlock()
        if keep?(output) ?? true { onValue(output) }
        lock.lock()
        if pending.isEmpty {
            emitting = false
            return lock.unlock()
        }
        drain()
    }

    /// Called with `lock` held; releases it. Completes the downstream now, or after the emissions before it.
    @inlinable
    func emitCompletion() {
        ended = true
        if emitting {
            enqueueCompletion()
            return lock.unlock()
        }
        emitting = true
        // Taken now, under the lock this already holds: nothing stores an input once `ended` is set.
        let taken = (source, inner)
        source = nil
        inner = nil
        lock.unlock()
        onComplete()
        release(taken.0, taken.1)
    }

    /// Called with `lock` held; releases it. Fails the downstream now, or after the emissions before it.
    @usableFromInline
    func emitError(_ error: Failure) {
        ended = true
        if emitting {
            pending.append(.error(error))
            return lock.unlock()
        }
        emitting = true
        let taken = (source, inner)
        source = nil
        inner = nil
        lock.unlock()
        onError(error)
        release(taken.0, taken.1)
    }

    /// Called with `lock` held by the emitting thread; releases it. Delivers what queued behind the emissions, in
    /// order, until nothing is left (or the subscription was disposed: queued emissions are then dropped).
    @usableFromInline
    func drain() {
        var batch: [Emission] = []
        while !pending.isEmpty && !disposed {
            swap(&pending, &batch)
            lock.unlock()
            for emission in batch {
                switch emission {
                case .value(let output):
                    if keep?(output) ?? true { onValue(output) }
                case .error(let error):
                    onError(error)
                    return finishAfterTerminal()
                case .complete:
                    onComplete()
                    return finishAfterTerminal()
                }
            }
            batch.removeAll(keepingCapacity: true)
            lock.lock()
        }
        pending.removeAll()
        emitting = false
        lock.unlock()
    }

    @inline(never) @usableFromInline
    func enqueue(value: Output) {
        pending.append(.value(value))
    }

    @inline(never) @usableFromInline
    func enqueueCompletion() {
        pending.append(.complete)
    }

    /// After a queued terminal event's callback: the source and the latest inner are released (the source has
    /// ended or failed; an inner is cut short by an error).
    @usableFromInline
    func finishAfterTerminal() {
        lock.lock()
        let taken = (source, inner)
        source = nil
        inner = nil
        lock.unlock()
        release(taken.0, taken.1)
    }

    /// Disposes `source` and `inner`: deep in the stack queued for the root, as a subscription's cleanup is (a
    /// chain of switch levels disposes one level from inside the next; see `SubscriptionDepth`).
    @usableFromInline
    func release(_ source: Disposer?, _ inner: Disposer?) {
        if source == nil && inner == nil { return }
        currentSubscriptionDepth()._withUnsafeGuaranteedRef { depth in
            if let source { depth.dispose(source) }
            if let inner { depth.dispose(inner) }
        }
    }

    /// Ends the subscription: nothing more is delivered (queued emissions are dropped), the source and the latest
    /// inner are disposed.
    override func dispose() {
        lock.lock()
        if disposed { return lock.unlock() }
        // Also after a terminal event was accepted: if it is still queued, it is dropped with the rest, and its
        // delivery will not release the inputs.
        disposed = true
        let taken = (source, inner)
        source = nil
        inner = nil
        lock.unlock()
        release(taken.0, taken.1)
    }

    override var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed || ended
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
