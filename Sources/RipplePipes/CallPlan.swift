/// Every action of one chain, by key slot, in chain order: what a call runs. Immutable once built, and laid out in
/// plain buffers so that a call reads it without touching a reference count.
///
/// A chain builds one on the first call after a change and every pipe of the chain publishes it (see ``PipeCore``).
///
/// `@unchecked Sendable`: immutable after init.
///
/// Invariants of the two buffers (checked under `RIPPLE_INTERNAL_CHECKS`): `entries[0..<entryCount]` are
/// initialised, each holding one strong reference (taken in init, given back in deinit), so a registration borrowed
/// from it lives as long as the plan, which a call keeps alive by being counted as its reader; `spans[0..<slotCount]`
/// are initialised, and each span lies inside `0..<entryCount`, the spans of successive slots adjacent.
///
/// Why plain buffers: a call borrows its slot's registrations with no retain, release or uniqueness check of an
/// array (part of ActionPipe1's 206 instructions a call; not measured apart from the rest of that path).
@usableFromInline
final class CallPlan: @unchecked Sendable {
    /// Every registration of the chain, grouped by slot; each holds one strong reference, released in deinit.
    @usableFromInline let entries: UnsafeMutablePointer<Unmanaged<AnyObject>>
    @usableFromInline let entryCount: Int
    /// Indexed by slot: where that slot's registrations start in `entries` and how many there are.
    @usableFromInline let spans: UnsafeMutablePointer<(start: Int, count: Int)>
    @usableFromInline let slotCount: Int

    /// The plan of a chain made of `cores`, in order (a bundle's core may hold several registrations per slot).
    init(cores: some Sequence<PipeCore>) {
        var bySlot: [ContiguousArray<AnyObject>] = []
        for core in cores {
            for (slot, registrations) in core.registrations {
                if slot >= bySlot.count {
                    bySlot.append(contentsOf: repeatElement([], count: slot + 1 - bySlot.count))
                }
                bySlot[slot].append(contentsOf: registrations)
            }
        }
        slotCount = bySlot.count
        entryCount = bySlot.reduce(0) { $0 + $1.count }
        spans = .allocate(capacity: max(slotCount, 1))
        entries = .allocate(capacity: max(entryCount, 1))
        var next = 0
        for (slot, registrations) in bySlot.enumerated() {
            (spans + slot).initialize(to: (start: next, count: registrations.count))
            for registration in registrations {
                (entries + next).initialize(to: .passRetained(registration))
                next += 1
            }
        }
        #if RIPPLE_INTERNAL_CHECKS
        precondition(next == entryCount, "RipplePipes: a call plan initialised \(next) of \(entryCount) entries")
        #endif
    }

    deinit {
        for index in 0..<entryCount {
            entries[index].release()
        }
        entries.deallocate()
        spans.deallocate()
    }

    /// The registrations a call of `slot` runs, borrowed from this plan; nil when there are none.
    @inlinable @inline(__always)
    func registrations(for slot: Int) -> UnsafeBufferPointer<Unmanaged<AnyObject>>? {
        guard slot < slotCount else { return nil }
        let span = spans[slot]
        guard span.count > 0 else { return nil }
        #if RIPPLE_INTERNAL_CHECKS
        precondition(slot >= 0 && span.start >= 0 && span.start + span.count <= entryCount,
                     "RipplePipes: slot \(slot)'s span \(span) lies outside the plan's \(entryCount) entries")
        #endif
        return UnsafeBufferPointer(start: entries + span.start, count: span.count)
    }
}
