import RippleCore
import Synchronization

/// What a port's packets run through: the current chain of every live plumber the port is wired to, in wiring
/// order, with the frames the port's packets borrow in each (see `enterClaimingFrame()`). Immutable but for the frames'
/// contents; the port takes it down whenever its wiring or one of its plumbers' chains changes, and its next emit
/// builds a new one (see ``PortWiring``).
///
/// `@unchecked Sendable`: `sole` and `frameRefs` are borrowed views (``Borrowed``) of `chains` and `frames`, which
/// keep them alive; a frame is used only by the emit holding its bit in the port's reader count
/// (see `enterClaimingFrame()`).
@usableFromInline
final class Route: @unchecked Sendable {
    /// Frames per chain: the emits a port runs at once without allocating continuation records.
    @usableFromInline static let frameCount = 4
    @inlinable static var frameBits: Int { (1 << frameCount) - 1 }
    /// The reader unit of a port's `PublishedSnapshot<Route>`: the frame bits sit below it.
    @inlinable static var readerUnit: Int { 1 << frameCount }

    /// Each a `Chain<P>`, typed `AnyObject` for the same reason as ``ObjectSlot``.
    @usableFromInline let chains: [AnyObject]
    /// The only chain, when there is exactly one: the usual wiring reads no array.
    @usableFromInline let sole: Borrowed<AnyObject>?
    /// ``frameCount`` `FrameHead<P>`s per chain: those of `chains[k]` start at `k * frameCount`.
    let frames: [AnyObject]
    @usableFromInline let frameRefs: [Borrowed<AnyObject>]

    init(chains: [AnyObject], makeFrame: () -> AnyObject) {
        self.chains = chains
        sole = chains.count == 1 ? Borrowed(chains[0]) : nil
        frames = (0..<chains.count * Self.frameCount).map { _ in makeFrame() }
        frameRefs = frames.map { Borrowed($0) }
    }
}

/// What `enterClaimingFrame()` gives an emit: the route it borrows and the frame it may use in each chain.
@usableFromInline @frozen
struct RouteClaim {
    /// Kept alive by the port's published snapshot while the claim counts the emit as its reader.
    @usableFromInline let route: Borrowed<Route>?
    /// The claimed bit of the port's reader count (0: every frame was in use).
    @usableFromInline let frameBit: Int
    /// What counts the emit in the port's reader count (the unit of the half it entered), to take off when it leaves.
    @usableFromInline let unit: Int

    @inlinable
    init(route: Unmanaged<Route>?, frameBit: Int, unit: Int) {
        self.route = route.map { Borrowed($0) }
        self.frameBit = frameBit
        self.unit = unit
    }

    /// The index of the claimed frame among a chain's frames, or nil.
    @inlinable
    var frame: Int? {
        frameBit == 0 ? nil : frameBit.trailingZeroBitCount
    }
}

/// A port's published ``Route`` (a `PublishedSnapshot`, read by `emit` with neither a lock nor a retain), whose
/// reader count also claims one of the route's frames in the same atomic update: the low ``Route/frameCount`` bits
/// say which frame index is in use, so a frame (in whichever route the emit reads) has one user at a time, and the
/// emit needs no separate atomic to borrow it. Bit `j` held while a route was replaced guards frame `j` of the old
/// and new route.
extension PublishedSnapshot where Snapshot == Route {
    /// Starts borrowing the published route (nil when there is none) and claims a free frame index if there is
    /// one. Pair with ``leave(_:)``.
    @inlinable @inline(__always)
    func enterClaimingFrame() -> RouteClaim {
        var old = readers.load(ordering: .relaxed)
        var bit: Int
        var unit: Int
        while true {
            let free = ~old & Route.frameBits
            bit = free & (0 &- free)
            // The unit of the epoch's half in the value compared, so the emit counts itself where it will leave.
            unit = self.unit(entering: old)
            let (exchanged, seen) = readers.compareExchange(expected: old, desired: old &+ unit &+ bit,
                                                            ordering: .sequentiallyConsistent)
            if exchanged { break }
            old = seen
        }
        return RouteClaim(route: loadPublished(), frameBit: bit, unit: unit)
    }

    /// Stops borrowing and hands the frame back.
    @inlinable @inline(__always)
    func leave(_ claim: RouteClaim) {
        leave(unit: claim.unit, ownerBits: claim.frameBit)
    }
}
