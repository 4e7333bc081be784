import RippleCore

/// Per-subscription state of the two-input `combineLatest` (the spelled-out overload): the four-input state's
/// design for two inputs (see `CombineLatest4`), so the common pair is specialised in the caller's module too.
/// `@unchecked Sendable`: the slots and bit sets are guarded by the inherited `lock`.
@usableFromInline
final class CombineLatest2<A: Sendable, B: Sendable, Failure: Error>: AttachedInputsState<(A, B), Failure>,
    @unchecked Sendable
{
    @usableFromInline static var allInputs: Int { 0b11 }

    /// Input `i`'s latest value, initialised once bit `i` of `present` is set (one raw buffer: see
    /// `CombineLatest4`).
    @usableFromInline let slotA: UnsafeMutablePointer<A>
    @usableFromInline let slotB: UnsafeMutablePointer<B>
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    /// Bit `i` is set once input `i` has sent a value.
    @usableFromInline @exclusivity(unchecked) var present = 0
    /// Bit `i` is set once input `i` has completed.
    @usableFromInline @exclusivity(unchecked) var completedInputs = 0

    @inlinable
    override init(downstream: Subscriber<(A, B), Failure>) {
        let alignmentB = MemoryLayout<B>.alignment
        let offsetB = (MemoryLayout<A>.size + alignmentB - 1) / alignmentB * alignmentB
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: max(offsetB + MemoryLayout<B>.size, 1),
            alignment: max(MemoryLayout<A>.alignment, alignmentB))
        slotA = buffer.assumingMemoryBound(to: A.self)
        slotB = (buffer + offsetB).assumingMemoryBound(to: B.self)
        super.init(downstream: downstream)
    }

    deinit {
        if present & 0b01 != 0 { slotA.deinitialize(count: 1) }
        if present & 0b10 != 0 { slotB.deinitialize(count: 1) }
        UnsafeMutableRawPointer(slotA).deallocate()
    }

    /// Subscribes the inputs in order (the second not once the downstream is disposed) with raw callbacks that
    /// capture only this state, and returns this state as their disposer (see `CombineLatest4.start`).
    @inlinable
    func start(_ sa: Signal<A, Failure>, _ sb: Signal<B, Failure>) -> Disposer {
        let da = sa.attach(
            value: { self.receive(a: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 0) })
        let db = downstream.isDisposed ? nil : sb.attach(
            value: { self.receive(b: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 1) })
        return adopt(da, db)
    }

    @inlinable
    func receive(a value: A) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        if present & 0b01 != 0 { slotA.pointee = value } else { slotA.initialize(to: value); present |= 0b01 }
        received()
    }

    @inlinable
    func receive(b value: B) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        if present & 0b10 != 0 { slotB.pointee = value } else { slotB.initialize(to: value); present |= 0b10 }
        received()
    }

    /// Called with `lock` held after an input stored a value; releases it, emitting once both have one.
    @inlinable
    func received() {
        guard present == Self.allInputs else { return lock.unlock() }
        emit((slotA.pointee, slotB.pointee))
    }

    /// Input `input` completed: the result completes if it never sent a value (no pair can form) or if both have
    /// completed.
    @inlinable
    func complete(input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        completedInputs |= 1 << input
        if present & (1 << input) == 0 || completedInputs == Self.allInputs {
            enqueueCompletion()
        }
        lock.unlock()
        flush()
    }
}
