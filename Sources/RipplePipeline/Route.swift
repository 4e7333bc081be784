import RippleCore
import Synchronization

/// What a port's packets run through: the current chain of every live plumber the port is wired to, in wiring
/// order, with the frames the port's packets borrow in each (see ``RouteSlot/enter()``). Immutable but for the frames'
/// contents; the port publishes a new one whenever its wiring or one of its plumbers' chains changes.
///
/// `@unchecked Sendable`: `sole` and `frameRefs` are unretained views of `chains` and `frames`, which keep them
/// alive; a frame is used only by the emit holding its bit in ``RouteSlot/readers``.
@usableFromInline
final class Route: @unchecked Sendable {
    /// Each a `Chain<P>`, typed `AnyObject` for the same reason as ``ObjectSlot``.
    @usableFromInline let chains: [AnyObject]
    /// The only chain, when there is exactly one: the usual wiring reads no array.
    @usableFromInline let sole: Unmanaged<AnyObject>?
    /// ``RouteSlot/frameCount`` `FrameHead<P>`s per chain: those of `chains[k]` start at `k * frameCount`.
    let frames: [AnyObject]
    @usableFromInline let frameRefs: [Unmanaged<AnyObject>]

    init(chains: [AnyObject], makeFrame: () -> AnyObject) {
        self.chains = chains
        sole = chains.count == 1 ? Unmanaged.passUnretained(chains[0]) : nil
        frames = (0..<chains.count * RouteSlot.frameCount).map { _ in makeFrame() }
        frameRefs = frames.map(Unmanaged.passUnretained)
    }
}

/// What ``RouteSlot/enter()`` gives an emit: the route it borrows and the frame it may use in each chain.
@usableFromInline
struct RouteClaim {
    @usableFromInline let route: Unmanaged<Route>?
    /// The claimed bit of ``RouteSlot/readers`` (0: every frame was in use).
    @usableFromInline let frameBit: Int

    @inlinable
    init(route: Unmanaged<Route>?, frameBit: Int) {
        self.route = route
        self.frameBit = frameBit
    }

    /// The index of the claimed frame among a chain's frames, or nil.
    @inlinable
    var frame: Int? {
        frameBit == 0 ? nil : frameBit.trailingZeroBitCount
    }
}

/// A port's published ``Route``, read by `emit` without a lock and without retaining it.
///
/// An emit counts itself in `readers` for as long as it borrows the published route. Whoever replaces the route
/// (under `lock`) releases the old one at once when no emit is counted, and otherwise retires it; the last emit to
/// leave releases the retired routes. Both sides use sequentially consistent operations: an emit increments
/// `readers` before it loads `published`, a publisher swaps `published` out before it loads `readers`, so either the
/// publisher sees the emit or the emit sees the new route. (The same scheme as RipplePipes' published call plans.)
///
/// The same atomic update claims one of the route's frames: the low `frameCount` bits of `readers` say which frame
/// index is in use, so a frame (in whichever route the emit reads) has one user at a time, and the emit needs no
/// separate atomic to borrow it. Bit `j` held while a route was replaced guards frame `j` of the old and new route.
///
/// `@unchecked Sendable`: `retired` is only touched under `lock`; the rest is atomic.
@usableFromInline
final class RouteSlot: @unchecked Sendable {
    /// Frames per chain: the emits a port runs at once without allocating continuation records.
    @usableFromInline static let frameCount = 4
    @inlinable static var frameBits: Int { (1 << frameCount) - 1 }
    @inlinable static var readerUnit: Int { 1 << frameCount }

    /// The emits borrowing a route (in units of `readerUnit`) and the frames they hold (the low bits).
    @usableFromInline let readers = Atomic<Int>(0)
    /// The route (one strong reference), or nil while the port is wired to no live plumber.
    @usableFromInline let published = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Whether `retired` is not empty, so the last emit to leave knows it has something to release.
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    private let lock = RawLock()
    /// Routes replaced while emits borrowed them.
    @exclusivity(unchecked) private var retired: [Route] = []

    init() {}

    deinit {
        // Nobody references the port any more, so no emit is reading the route.
        if let raw = published.load(ordering: .acquiring) {
            Unmanaged<Route>.fromOpaque(raw).release()
        }
    }

    /// Starts borrowing the published route (nil when there is none) and claims a free frame index if there is
    /// one. Pair with ``leave(_:)``.
    @inlinable @inline(__always)
    func enter() -> RouteClaim {
        var old = readers.load(ordering: .relaxed)
        var bit: Int
        while true {
            let free = ~old & Self.frameBits
            bit = free & (0 &- free)
            let (exchanged, seen) = readers.compareExchange(expected: old, desired: old &+ Self.readerUnit &+ bit,
                                                            ordering: .sequentiallyConsistent)
            if exchanged { break }
            old = seen
        }
        let raw = published.load(ordering: .sequentiallyConsistent)
        return RouteClaim(route: raw.map { Unmanaged.fromOpaque($0) }, frameBit: bit)
    }

    /// Stops borrowing and hands the frame back; the last emit to leave releases retired routes.
    @inlinable @inline(__always)
    func leave(_ claim: RouteClaim) {
        let before = readers.wrappingSubtract(Self.readerUnit &+ claim.frameBit, ordering: .sequentiallyConsistent)
            .oldValue
        if before < Self.readerUnit << 1 && hasRetired.load(ordering: .sequentiallyConsistent) {
            releaseRetired()
        }
    }

    /// Publishes the route `make` builds (nil: none). `make` runs under the lock, so when several threads republish
    /// at once the last one to build is the one that stays; it must not call user code.
    func republish(_ make: () -> Route?) {
        var garbage: [Route] = []
        lock.lock()
        let new = make().map { Unmanaged.passRetained($0).toOpaque() }
        if let raw = published.exchange(new, ordering: .sequentiallyConsistent) {
            let old = Unmanaged<Route>.fromOpaque(raw).takeRetainedValue()
            if readers.load(ordering: .sequentiallyConsistent) == 0 {
                garbage.append(old)
            } else {
                retired.append(old)
                hasRetired.store(true, ordering: .sequentiallyConsistent)
                // The emits seen above may all have left before the flag was set, without seeing it.
                if readers.load(ordering: .sequentiallyConsistent) == 0 {
                    takeRetired(into: &garbage)
                }
            }
        }
        lock.unlock()
        // A route may hold the last reference to a chain, whose stages and handlers are user code: released here,
        // outside the lock.
        withExtendedLifetime(garbage) {}
    }

    @usableFromInline
    func releaseRetired() {
        var garbage: [Route] = []
        lock.lock()
        // An emit that entered since then borrows the published route, never a retired one.
        if readers.load(ordering: .sequentiallyConsistent) == 0 {
            takeRetired(into: &garbage)
        }
        lock.unlock()
        withExtendedLifetime(garbage) {}
    }

    /// Call with `lock` held and no emit counted.
    private func takeRetired(into garbage: inout [Route]) {
        garbage.append(contentsOf: retired)
        retired = []
        hasRetired.store(false, ordering: .sequentiallyConsistent)
    }
}
