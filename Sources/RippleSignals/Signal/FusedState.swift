import RippleCore
import Synchronization

// Invariants:
// - A fused operator with inputs that may send from several threads (`flatMap`, `flatMapLatest`) makes no subscriber
//   of its own: its per-subscription state calls the downstream's raw callbacks (see `Signal.fused(_:)`) and keeps
//   their grammar itself, through the ordered hand-off below: one callback at a time, in the order the emissions
//   were accepted under `lock`; whichever thread finds it idle delivers, and delivers what others (or its own
//   callbacks, re-entrantly) queued meanwhile; at most one terminal event, nothing after it; after disposal nothing
//   more starts (what is queued is dropped). Callbacks never run under `lock`.
// - Ownership, the rule of every multi-input operator (see `CombiningState`): the state is owned only by its inputs'
//   callbacks, and owns the downstream's callbacks. The disposer handed downstream does not own it (`WeakDisposer`),
//   so once every producer has let go of its subscriber the state is freed, frees the downstream's callbacks (the
//   subclass's `deinit` releases what is still subscribed), and the disposer reports the subscription ended. A
//   subscription that ended while it was being made (a `just` source and `just` inners) hands out the shared
//   `Disposer.ended` instead, and its state is freed as `subscribe` returns.
// - One object per operator per subscription, where a subscriber, its core and the operator's state made three
//   (callgrind, FlatMapLatestCreating 18,395 → 8,566 instructions a chain, FlatMapsCreating 12,508 → 6,193;
//   over a source the optimiser cannot see through, 19,994 → 14,787 and 14,096 → 10,345; BENCHMARKS.md). The
//   price: a lock pair per level per value where a subscriber's two compare-exchanges were (FlatMapsPumping 389 →
//   473 instructions a value).
// - Depth (see `SubscriptionTrampoline`): a state takes a level when it starts, as a subscriber does, and raises the
//   thread's level to it while it subscribes an inner signal, unless the thread is `maxLevels` above the running
//   step's base: the inner signal is then subscribed from a step queued for the root (`subscribeInnerLater`), as a
//   deferred subscriber subscribes. An inner `flatMap` over `just` sources makes no subscriber whose deferral would
//   cut the recursion, so nesting them recursed once per level. A state `deepLevel` or more levels deep is a
//   checkpoint: each hand-off to the downstream, and the freeing of the downstream's callbacks, is a counted step of
//   the trampoline; a step queued for the root goes through `pending` (with `emitting` set, so later emissions queue
//   behind it), so the downstream still hears everything in order.

let fusedStateCounter = LiveObjectCounter("Signal.FusedOperatorState")

/// Counts a state made by the inlinable `init`, which cannot name the module's counter.
@usableFromInline
func countFusedStateMade() {
    fusedStateCounter.increment()
}

/// The per-subscription state of a fused operator with several inputs: the downstream's raw callbacks and the
/// ordered hand-off to them (see the invariants above). Subclasses keep their inputs' disposers and release them in
/// ``releaseInputs()``. `@unchecked Sendable`: the mutable state is guarded by `lock`.
@usableFromInline @_fixed_layout
class FusedState<Output: Sendable, Failure: Error>: Disposer, @unchecked Sendable {
    @usableFromInline
    enum Emission {
        case value(Output)
        case error(Failure)
        case complete
    }

    @usableFromInline let lock = RawLock()
    @usableFromInline let onValue: @Sendable (Output) -> Void
    /// The predicate of the filters right below (see `Signal.fused(_:)`); nil keeps every value.
    @usableFromInline let keep: (@Sendable (Output) -> Bool)?
    @usableFromInline let onError: @Sendable (Failure) -> Void
    @usableFromInline let onComplete: @Sendable () -> Void
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks.
    /// A terminal event was accepted: nothing more is.
    @usableFromInline @exclusivity(unchecked) final var ended = false
    @usableFromInline @exclusivity(unchecked) final var disposed = false
    /// Some thread is calling the downstream; others queue behind it in `pending`.
    @usableFromInline @exclusivity(unchecked) final var emitting = false
    /// `level >= SubscriptionTrampoline.deepLevel`: a checkpoint (see the invariants above). Written once in `start`,
    /// before any input can emit.
    @usableFromInline @exclusivity(unchecked) final var deep = false
    /// Its level (see `SubscriptionTrampoline`); written once in `start`. Next to the flags: no extra word.
    @usableFromInline @exclusivity(unchecked) final var level: UInt32 = 0
    @usableFromInline @exclusivity(unchecked) final var pending: [Emission] = []
    /// Copies of the callbacks, set by `deinit` at a checkpoint: declared last, so it is destroyed after them, and
    /// frees what they held as a counted step (see `CallbackRelease`).
    @exclusivity(unchecked) final var releaseLast: CallbackRelease?
    #if RIPPLE_INTERNAL_CHECKS
    /// Downstream callbacks running now (at most one), and whether the terminal one ran.
    @usableFromInline let callbacksRunning = Atomic<Int>(0)
    @usableFromInline let terminalDelivered = Atomic<Bool>(false)
    #endif

    @inlinable
    init(value: @escaping @Sendable (Output) -> Void, keep: (@Sendable (Output) -> Bool)?,
         error: @escaping @Sendable (Failure) -> Void, complete: @escaping @Sendable () -> Void) {
        onValue = value
        self.keep = keep
        onError = error
        onComplete = complete
        super.init()
        countFusedStateMade()
    }

    deinit {
        fusedStateCounter.decrement()
        if deep {
            releaseLast = CallbackRelease(onValue, onError, onComplete)
        }
    }

    /// Takes this state's level (see the invariants above); returns the trampoline, whose `level` the caller
    /// decrements once its source is attached. Out of line: it runs once per subscription.
    @usableFromInline @inline(never)
    final func enterLevel() -> TrampolineReference {
        let (trampoline, level) = enterFusedLevel()
        self.level = level
        deep = Int(level) >= SubscriptionTrampoline.deepLevel
        return trampoline
    }

    /// Whether an inner signal subscribed from here now must wait for the root: the thread is `maxLevels` levels
    /// above the running step's base (see `SubscriptionTrampoline`). Out of line: only inner signals that are not a
    /// `just` get here, each a subscription of its own.
    @usableFromInline @inline(never)
    final func innerMustWait() -> Bool {
        currentTrampoline().with { trampoline in
            trampoline.running && trampoline.level &- trampoline.stepBase >= SubscriptionTrampoline.maxLevels
        }
    }

    /// Queues `subscribe` (an inner signal's subscription, see ``innerMustWait()``) for the root, at the current
    /// level. It owns this state until it runs; it should subscribe nothing if the state has ended meanwhile.
    @usableFromInline @inline(never)
    final func subscribeInnerLater(_ subscribe: @escaping () -> Void) {
        currentTrampoline().with { $0.enqueue(subscribe) }
    }

    /// Checks the hand-off's invariants before a downstream callback runs (`RIPPLE_INTERNAL_CHECKS`): the calling
    /// thread holds `emitting`, no other callback runs, nothing follows the terminal event, which comes after
    /// `ended`.
    @inlinable @inline(__always)
    final func checkCallback(terminal: Bool) {
        #if RIPPLE_INTERNAL_CHECKS
        lock.lock()
        let handingOff = emitting
        let closed = ended
        lock.unlock()
        precondition(handingOff, "Ripple internal check: a fused state called its downstream without emitting")
        precondition(callbacksRunning.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0,
                     "Ripple internal check: two downstream callbacks of one fused state ran at once")
        precondition(!terminalDelivered.load(ordering: .acquiring),
                     "Ripple internal check: a fused state called its downstream after the terminal event")
        if terminal {
            precondition(closed, "Ripple internal check: a fused state's terminal event before it ended")
            terminalDelivered.store(true, ordering: .releasing)
        }
        #endif
    }

    /// The callback `checkCallback` checked returned.
    @inlinable @inline(__always)
    final func checkCallbackReturned() {
        #if RIPPLE_INTERNAL_CHECKS
        callbacksRunning.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        #endif
    }

    /// Whether inputs may still emit: neither ended nor disposed. Called with `lock` held.
    @inlinable
    final var isOpen: Bool {
        !ended && !disposed
    }

    /// An input's value: forwarded in order, unless the subscription ended or was disposed.
    @inlinable
    final func forward(_ value: Output) {
        lock.lock()
        guard isOpen else { return lock.unlock() }
        emit(value)
    }

    /// An input's error: ends the subscription (the other inputs are disposed), unless it already ended.
    @inlinable
    final func fail(_ error: Failure) {
        lock.lock()
        guard isOpen else { return lock.unlock() }
        emitError(error)
    }

    /// Called with `lock` held; releases it. Calls the downstream at once unless another thread (or this one,
    /// re-entrantly) is calling it: then that call delivers `output` after its own, in order.
    @inlinable
    final func emit(_ output: Output) {
        if emitting {
            enqueue(value: output)
            return lock.unlock()
        }
        emitting = true
        if deep { return emitAtCheckpoint(.value(output)) }
        lock.unlock()
        if keep?(output) ?? true {
            checkCallback(terminal: false)
            onValue(output)
            checkCallbackReturned()
        }
        lock.lock()
        if pending.isEmpty {
            emitting = false
            return lock.unlock()
        }
        drain()
    }

    /// `emit`, `emitCompletion` or `emitError` at a checkpoint, once this thread has set `emitting` (with `lock`
    /// held; releases it): a counted step of the trampoline, or queued for the root through `pending`.
    @usableFromInline @inline(never)
    final func emitAtCheckpoint(_ emission: Emission) {
        currentTrampoline().with { trampoline in
            switch trampoline.route() {
            case .queue:
                pending.append(emission)
                lock.unlock()
                trampoline.enqueue {
                    self.lock.lock()
                    self.drain()
                }
            case .run:
                lock.unlock()
                trampoline.nested &+= 1
                deliverEmitting(emission)
                trampoline.nested &-= 1
            case .root:
                lock.unlock()
                trampoline.runAsRoot { deliverEmitting(emission) }
            }
        }
    }

    /// Delivers `emission` from the emitting thread (`lock` not held), then what queued behind it.
    final func deliverEmitting(_ emission: Emission) {
        switch emission {
        case .value(let output):
            if keep?(output) ?? true {
            checkCallback(terminal: false)
            onValue(output)
            checkCallbackReturned()
        }
            lock.lock()
            drain()
        case .error(let error):
            checkCallback(terminal: true)
            onError(error)
            checkCallbackReturned()
            releaseInputs()
        case .complete:
            checkCallback(terminal: true)
            onComplete()
            checkCallbackReturned()
            releaseInputs()
        }
    }

    /// Called with `lock` held; releases it. Completes the downstream now, or after the emissions before it; then
    /// the inputs are released.
    @inlinable
    final func emitCompletion() {
        ended = true
        if emitting {
            enqueueCompletion()
            return lock.unlock()
        }
        emitting = true
        if deep { return emitAtCheckpoint(.complete) }
        lock.unlock()
        checkCallback(terminal: true)
        onComplete()
        checkCallbackReturned()
        releaseInputs()
    }

    /// Called with `lock` held; releases it. Fails the downstream now, or after the emissions before it; then the
    /// inputs are released (an inner still running is cut short).
    @usableFromInline
    final func emitError(_ error: Failure) {
        ended = true
        if emitting {
            pending.append(.error(error))
            return lock.unlock()
        }
        emitting = true
        if deep { return emitAtCheckpoint(.error(error)) }
        lock.unlock()
        checkCallback(terminal: true)
        onError(error)
        checkCallbackReturned()
        releaseInputs()
    }

    /// Called with `lock` held by the emitting thread; releases it. Delivers what queued behind the emissions, in
    /// order, one at a time, each only if the subscription has not been disposed meanwhile (then the rest is
    /// dropped), until nothing is left. Others append under `lock` while this delivers, so indices stay valid.
    @usableFromInline
    final func drain() {
        var next = 0
        while next < pending.count && !disposed {
            let emission = pending[next]
            next += 1
            lock.unlock()
            switch emission {
            case .value(let output):
                if keep?(output) ?? true {
            checkCallback(terminal: false)
            onValue(output)
            checkCallbackReturned()
        }
            case .error(let error):
                checkCallback(terminal: true)
                onError(error)
                checkCallbackReturned()
                return releaseInputs()
            case .complete:
                checkCallback(terminal: true)
                onComplete()
                checkCallbackReturned()
                return releaseInputs()
            }
            lock.lock()
        }
        #if RIPPLE_INTERNAL_CHECKS
        precondition(emitting, "Ripple internal check: a fused state drained without emitting")
        #endif
        pending.removeAll(keepingCapacity: !disposed)
        emitting = false
        lock.unlock()
    }

    // Out of line: queueing is the contended or re-entrant path.
    @inline(never) @usableFromInline
    final func enqueue(value: Output) {
        pending.append(.value(value))
    }

    @inline(never) @usableFromInline
    final func enqueueCompletion() {
        pending.append(.complete)
    }

    /// Takes the inputs' disposers under `lock` and disposes them (see ``release(_:)``). Called without `lock`,
    /// after a terminal event's callback, on disposal, or from a subclass's `deinit` when every producer let go
    /// (there the lock is uncontended: nothing else references the state); later calls find nothing left.
    @usableFromInline
    func releaseInputs() {}

    /// Disposes `disposer` as a counted step of the trampoline, as a subscription's cleanup is (a chain of fused
    /// levels disposes one level from inside the next; see `SubscriptionTrampoline`).
    @usableFromInline
    final func release(_ disposer: Disposer) {
        currentTrampoline().with { $0.dispose(disposer) }
    }

    /// Ends the subscription: nothing more is delivered (queued emissions, a queued terminal event too, are
    /// dropped), the inputs are disposed.
    override final func dispose() {
        lock.lock()
        if disposed { return lock.unlock() }
        disposed = true
        lock.unlock()
        releaseInputs()
    }

    override final var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed || ended
    }
}
