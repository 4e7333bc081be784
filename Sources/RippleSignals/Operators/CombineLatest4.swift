import RippleCore

extension Signal {
    /// `combineLatest(_:)` of this signal and three others (see the parameter-pack form, whose behaviour this
    /// repeats exactly).
    ///
    /// Spelled out because the pack form runs unspecialised: every subscription and value there looks generic
    /// metadata up. This one is inlinable, so its state and callbacks are specialised in the caller's module.
    @inlinable
    public func combineLatest<B: Sendable, C: Sendable, D: Sendable>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>
    ) -> Signal<(Value, B, C, D), Failure> {
        let a = asUpstream, b = b.asUpstream, c = c.asUpstream, d = d.asUpstream
        let depth = max(depthAbove, b.depthAbove, c.depthAbove, d.depthAbove)
        return Signal<(Value, B, C, D), Failure>(depth: depth) { downstream in
            CombineLatest4(downstream: downstream).start(a, b, c, d)
        }
    }
}

/// Per-subscription state of the four-input `combineLatest`: the latest value of each input in a typed slot.
///
/// The slots live in one raw buffer rather than in `A?`…`D?` fields: the class's deinit runs unspecialised, and
/// destroying an optional of a generic type there looks the optional's metadata up (four lookups per subscription),
/// while a slot is destroyed with its element type's own value witnesses. `@unchecked Sendable`: the slots and bit
/// sets are guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
final class CombineLatest4<A: Sendable, B: Sendable, C: Sendable, D: Sendable, Failure: Error>:
    LatestSlotsState<(A, B, C, D), Failure>, @unchecked Sendable
{
    @usableFromInline override class var allInputs: Int { 0b1111 }

    /// Input `i`'s latest value, initialised once bit `i` of `present` is set.
    @usableFromInline let slotA: UnsafeMutablePointer<A>
    @usableFromInline let slotB: UnsafeMutablePointer<B>
    @usableFromInline let slotC: UnsafeMutablePointer<C>
    @usableFromInline let slotD: UnsafeMutablePointer<D>

    @inlinable
    override init(downstream: SignalSubscriber<(A, B, C, D), Failure>) {
        // One allocation for the four slots, each at the next multiple of its alignment.
        let offsetB = Self.aligned(MemoryLayout<A>.size, for: B.self)
        let offsetC = Self.aligned(offsetB + MemoryLayout<B>.size, for: C.self)
        let offsetD = Self.aligned(offsetC + MemoryLayout<C>.size, for: D.self)
        let alignment = max(MemoryLayout<A>.alignment, MemoryLayout<B>.alignment, MemoryLayout<C>.alignment,
                            MemoryLayout<D>.alignment)
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: max(offsetD + MemoryLayout<D>.size, 1), alignment: alignment)
        // Each slot's bytes bound to its type (see `CombineLatest2`: free at run time, and initialised with
        // `initialize(to:)` before any read).
        slotA = buffer.bindMemory(to: A.self, capacity: 1)
        slotB = (buffer + offsetB).bindMemory(to: B.self, capacity: 1)
        slotC = (buffer + offsetC).bindMemory(to: C.self, capacity: 1)
        slotD = (buffer + offsetD).bindMemory(to: D.self, capacity: 1)
        // No per-input `completed` array: the inherited bit sets replace it.
        super.init(downstream: downstream)
    }

    deinit {
        if present & 0b0001 != 0 { slotA.deinitialize(count: 1) }
        if present & 0b0010 != 0 { slotB.deinitialize(count: 1) }
        if present & 0b0100 != 0 { slotC.deinitialize(count: 1) }
        if present & 0b1000 != 0 { slotD.deinitialize(count: 1) }
        UnsafeMutableRawPointer(slotA).deallocate()
    }

    /// Subscribes the inputs in order (none once the downstream is disposed) and returns this state as their
    /// disposer (no array or closure to hold them). Each callback captures only this state, so none allocates a
    /// context; the inputs are attached with raw callbacks (they keep the grammar themselves, and the state's lock
    /// orders what they send), so a `just` input is delivered without a subscriber. The state is only disposed
    /// after the action returns it (the downstream attaches its cleanup then), so `inputs` is set by then.
    @inlinable
    func start(_ sa: Signal<A, Failure>, _ sb: Signal<B, Failure>, _ sc: Signal<C, Failure>,
               _ sd: Signal<D, Failure>) -> Disposer {
        // The error callbacks own the downstream (see `CombiningState`).
        let downstream = self.downstream
        let da = sa.attach(
            value: { self.receive($0, in: self.slotA, input: 0) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 0) })
        let db = downstream.isDisposed ? nil : sb.attach(
            value: { self.receive($0, in: self.slotB, input: 1) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 1) })
        let dc = downstream.isDisposed ? nil : sc.attach(
            value: { self.receive($0, in: self.slotC, input: 2) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 2) })
        let dd = downstream.isDisposed ? nil : sd.attach(
            value: { self.receive($0, in: self.slotD, input: 3) }, error: { downstream.sendError($0) },
            complete: { self.complete(input: 3) })
        return adopt(da, db, dc, dd)
    }

    /// Called with `lock` held after an input stored a value; releases it, emitting once every input has one.
    @inlinable
    override func received() {
        guard present == Self.allInputs else { return lock.unlock() }
        emit((slotA.pointee, slotB.pointee, slotC.pointee, slotD.pointee))
    }
}
