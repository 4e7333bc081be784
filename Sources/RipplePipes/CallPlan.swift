/// Every action of one chain, by key slot, in chain order: what a call runs. Immutable once built, and laid out in
/// plain buffers so that a call reads it without touching a reference count.
///
/// A chain builds one on the first call after a change and every pipe of the chain publishes it (see ``PipeCore``).
///
/// `@unchecked Sendable`: immutable after init.
@usableFromInline
final class CallPlan: @unchecked Sendable {
    /// Every registration of the chain, grouped by slot; each holds one strong reference, released in deinit.
    @usableFromInline let entries: UnsafeMutablePointer<Unmanaged<AnyObject>>
    @usableFromInline let entryCount: Int
    /// Indexed by slot: where that slot's registrations start in `entries` and how many there are.
    @usableFromInline let spans: UnsafeMutablePointer<(start: Int, count: Int)>
    @usableFromInline let slotCount: Int

    /// The plan of a chain made of `cores`, in order (a bundle's core may hold several registrations per slot).
    init(cores: [PipeCore]) {
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
        return UnsafeBufferPointer(start: entries + span.start, count: span.count)
    }
}
