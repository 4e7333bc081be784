import RippleCore

/// Per-subscription state of the two-input `zip` (the spelled-out overload): the pack form's queues (see `ZipState`)
/// typed and specialised in the caller's module, with the two-input combineLatest's shape (raw-callback inputs, the
/// state as their disposer). `@unchecked Sendable`: the queues and bit sets are guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
final class Zip2<A: Sendable, B: Sendable, Failure: Error>: AttachedInputsState<(A, B), Failure>, @unchecked Sendable {
    @usableFromInline let queueA = ZipQueue(of: A.self)
    @usableFromInline let queueB = ZipQueue(of: B.self)
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    /// Bit `i` is set once input `i` has completed.
    @usableFromInline @exclusivity(unchecked) var completedInputs = 0

    @inlinable
    override init(downstream: SignalSubscriber<(A, B), Failure>) {
        super.init(downstream: downstream)
    }

    /// Subscribes the inputs in order (the second not once the downstream is disposed) with raw callbacks that
    /// capture only this state, and returns this state as their disposer (see `CombineLatest4.start`).
    @inlinable
    func start(_ sa: Signal<A, Failure>, _ sb: Signal<B, Failure>) -> Disposer {
        // The error callbacks own the downstream (see `CombiningState`).
        let downstream = self.downstream
        let da = sa.attach(
            value: { self.receive($0, on: self.queueA) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 0) })
        let db = downstream.isDisposed ? nil : sb.attach(
            value: { self.receive($0, on: self.queueB) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 1) })
        return adopt(da, db)
    }

    /// An input sent `value`: queued on its typed `queue`.
    @inlinable @inline(__always)
    func receive<T>(_ value: T, on queue: ZipQueue<T>) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        queue.append(value)
        received()
    }

    /// Called with `lock` held after an input queued a value; releases it. Once both queues hold one, queues the
    /// pair, then the completion if an input that completed has nothing left.
    @inlinable
    func received() {
        if queueA.count > 0 && queueB.count > 0 {
            enqueue(.value((queueA.removeFirst(), queueB.removeFirst())))
            if (completedInputs & 0b01 != 0 && queueA.count == 0)
                || (completedInputs & 0b10 != 0 && queueB.count == 0)
            {
                enqueue(.complete)
            }
        }
        lock.unlock()
        flush()
    }

    /// Input `input` completed: the result completes at once if that input has no value waiting (no further pair
    /// can form).
    @inlinable
    func complete(input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        completedInputs |= 1 << input
        if (input == 0 ? queueA.count : queueB.count) == 0 { enqueue(.complete) }
        lock.unlock()
        flush()
    }
}
