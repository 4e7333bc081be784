import RippleCore

/// Shared machinery of `zip` and `combineLatest`: per-input slots behind one lock, and an ordered hand-off of the
/// tuples they build.
///
/// Inputs may send from different threads. Tuples are built under `lock` in a definite order, then delivered
/// outside it; the thread that finds the emitter idle delivers everything queued meanwhile, so the downstream sees
/// tuples in the order they were built. A ``Disposer`` so that a subclass can hand itself out as its subscription's
/// cleanup (the four-input combineLatest does). `@unchecked Sendable`: all mutable state is guarded by `lock`.
///
/// Ownership (the rule of every multi-input operator, see the MemoryManagement article): the state does not
/// own ``downstream``. The downstream's cleanup owns the state (directly, or through the inputs it disposes), so an
/// owning reference back would be a cycle that keeps the whole chain alive once every producer has let go of its
/// subscriber without an end event (issue 19: 100 of 100 chains leaked). Each input's error callback owns the
/// downstream instead, so it lives exactly as long as some input's subscriber does.
@usableFromInline @_fixed_layout
class CombiningState<Output: Sendable, Failure: Error>: Disposer, @unchecked Sendable {
    @usableFromInline
    enum Emission {
        case value(Output)
        case complete
    }

    @usableFromInline let lock = RawLock()
    /// Not owned (see the type's comment); only reached from an input's callbacks, which run while that input's
    /// subscriber, and so the downstream its error callback owns, is alive. Unmanaged rather than a separate
    /// disposer object owning the inputs (one more allocation per subscription) or a safe `unowned` (an atomic
    /// reference-count operation on every value).
    @usableFromInline let unownedDownstream: UnownedSubscriber<Output, Failure>
    @inlinable final var downstream: SignalSubscriber<Output, Failure> { unownedDownstream.subscriber }

    @usableFromInline let inputCount: Int
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    @usableFromInline @exclusivity(unchecked) var completed: [Bool]
    /// How many of `completed` are true: asking `completed.contains(false)` on every completion made `n` inputs
    /// completing cost n².
    @usableFromInline @exclusivity(unchecked) var completedCount = 0
    @usableFromInline @exclusivity(unchecked) var ended = false
    // `pending` and `delivering` are only touched by the `@inline(never)` helpers and `flush`: naming `[Emission]`
    // makes an unspecialised function fetch that generic metadata (a locked hash-map lookup) on every call, even
    // when nothing is queued. `queued` mirrors `pending.count` for the fast path of `emit(_:)`. (`init`, `flush` and
    // `enqueueCompletion` are inlinable so that specialised operators, such as the four-input combineLatest, pay
    // no lookup there either.)
    @usableFromInline @exclusivity(unchecked) var pending: [Emission] = []
    @usableFromInline @exclusivity(unchecked) var queued = 0
    /// The batch being delivered; touched only by the thread that set `emitting`. Swapped with `pending` so both
    /// buffers keep their capacity and a steady stream allocates nothing.
    @usableFromInline @exclusivity(unchecked) var delivering: [Emission] = []
    @usableFromInline @exclusivity(unchecked) var emitting = false

    @inlinable
    init(inputCount: Int, downstream: SignalSubscriber<Output, Failure>) {
        self.inputCount = inputCount
        unownedDownstream = UnownedSubscriber(downstream)
        completed = Array(repeating: false, count: inputCount)
        super.init()
    }

    /// Called with `lock` held; releases it. Delivers `output` at once unless another thread is emitting (then that
    /// thread delivers it, in order).
    @usableFromInline
    func emit(_ output: Output) {
        if emitting || queued != 0 {
            // Behind another thread's emissions, or behind ones queued by `enqueue` whose `flush` has not run yet.
            enqueue(value: output)
            let mustFlush = !emitting
            lock.unlock()
            if mustFlush { flush() }
            return
        }
        emitting = true
        lock.unlock()
        unownedDownstream.with { $0.send(output) }
        lock.lock()
        if queued == 0 {
            emitting = false
            lock.unlock()
            return
        }
        lock.unlock()
        flush(alreadyEmitting: true)
    }

    /// Called with `lock` held; releases it. Completes the downstream at once unless emissions are being delivered
    /// or wait (then it is queued behind them): a completion costs no queue storage in the common case.
    @inlinable
    final func emitCompletion() {
        ended = true
        if emitting || queued != 0 {
            enqueueCompletion()
            let mustFlush = !emitting
            lock.unlock()
            if mustFlush { flush() }
            return
        }
        lock.unlock()
        unownedDownstream.with { $0.sendComplete() }
    }

    /// Called with `lock` held: records that input `input` completed; returns whether every input now has.
    @usableFromInline
    final func markCompleted(_ input: Int) -> Bool {
        if !completed[input] {
            completed[input] = true
            completedCount += 1
        }
        return completedCount == inputCount
    }

    /// Called with `lock` held: queues `emission`. The caller must call ``flush()`` after unlocking.
    @inlinable
    final func enqueue(_ emission: Emission) {
        if case .complete = emission { ended = true }
        pending.append(emission)
        queued += 1
    }

    /// Called with `lock` held: queues the completion (see ``enqueue(_:)``).
    @inlinable
    final func enqueueCompletion() {
        enqueue(.complete)
    }

    @inline(never)
    private func enqueue(value: Output) {
        enqueue(.value(value))
    }

    /// Delivers queued emissions unless another thread already is.
    @inlinable
    final func flush(alreadyEmitting: Bool = false) {
        lock.lock()
        if emitting && !alreadyEmitting {
            lock.unlock()
            return
        }
        emitting = true
        while !pending.isEmpty {
            swap(&pending, &delivering)
            queued = 0
            lock.unlock()
            for emission in delivering {
                switch emission {
                case .value(let output): unownedDownstream.with { $0.send(output) }
                case .complete: unownedDownstream.with { $0.sendComplete() }
                }
            }
            lock.lock()
            delivering.removeAll(keepingCapacity: true)
        }
        emitting = false
        lock.unlock()
    }
}
