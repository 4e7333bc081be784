import RippleCore

/// Per-subscription state of the two-input `combineLatest` (the spelled-out overload): the four-input state's
/// design for two inputs (see `CombineLatest4`), so the common pair is specialised in the caller's module too.
/// `@unchecked Sendable`: the slots and bit sets are guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
final class CombineLatest2<A: Sendable, B: Sendable, Failure: Error>: LatestSlotsState<(A, B), Failure>,
    @unchecked Sendable
{
    @usableFromInline override class var allInputs: Int { 0b11 }

    /// Input `i`'s latest value, initialised once bit `i` of `present` is set (one raw buffer: see
    /// `CombineLatest4`).
    @usableFromInline let slotA: UnsafeMutablePointer<A>
    @usableFromInline let slotB: UnsafeMutablePointer<B>

    @inlinable
    override init(downstream: SignalSubscriber<(A, B), Failure>) {
        let offsetB = Self.aligned(MemoryLayout<A>.size, for: B.self)
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: max(offsetB + MemoryLayout<B>.size, 1),
            alignment: max(MemoryLayout<A>.alignment, MemoryLayout<B>.alignment))
        // Each slot's bytes are bound to its type (binding costs no instruction; `assumingMemoryBound` over raw
        // memory never bound was undefined behaviour); `LatestSlotsState.receive` initialises a slot with
        // `initialize(to:)` before anything reads it.
        slotA = buffer.bindMemory(to: A.self, capacity: 1)
        slotB = (buffer + offsetB).bindMemory(to: B.self, capacity: 1)
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
        // The error callbacks own the downstream (see `CombiningState`).
        let downstream = self.downstream
        let da = sa.attach(
            value: { self.receive($0, in: self.slotA, input: 0) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 0) })
        let db = downstream.isDisposed ? nil : sb.attach(
            value: { self.receive($0, in: self.slotB, input: 1) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 1) })
        return adopt(da, db)
    }

    /// Called with `lock` held after an input stored a value; releases it, emitting once both have one.
    @inlinable
    override func received() {
        guard present == Self.allInputs else { return lock.unlock() }
        emit((slotA.pointee, slotB.pointee))
    }
}
