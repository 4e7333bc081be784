import Synchronization

/// One pooled frame of a chain: the box of the first stage, which links to the boxes of the others through
/// `following`. A chain keeps a few, linked through `nextSlot`, so threads emitting at the same time each find one.
///
/// `@unchecked Sendable`: `head` is touched only by the thread that set `inUse`; the acquiring set and releasing
/// clear hand the frame, and every box in it, from thread to thread.
@usableFromInline
final class FrameSlot<P: Packet>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var head: NextBox<P>?
    @usableFromInline let inUse = Atomic<Bool>(false)
    @usableFromInline let nextSlot: FrameSlot<P>?

    init(count: Int) {
        nextSlot = count > 1 ? FrameSlot(count: count - 1) : nil
    }

    /// Claims this frame for the calling thread; false when another packet is using it.
    @inlinable
    func claim() -> Bool {
        // A plain load first: a busy frame costs no locked instruction to skip.
        !inUse.load(ordering: .relaxed) && !inUse.exchange(true, ordering: .acquiring)
    }

    @inlinable
    func release() {
        inUse.store(false, ordering: .releasing)
    }
}

/// A frame a port's route keeps for one chain; whoever holds its bit in the port's reader count uses it, so it needs
/// no flag of its own.
///
/// `@unchecked Sendable`: `head` is touched only by the emit holding the frame's bit; the atomic update that hands the
/// bit from one emit to the next orders their uses.
@usableFromInline
final class FrameHead<P: Packet>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var head: NextBox<P>?

    init() {}
}
