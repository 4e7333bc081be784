import RippleCore
import Synchronization

/// What a port's packets run through: the current chain of every live plumber the port is wired to, in wiring
/// order. Immutable; the port publishes a new one whenever its wiring or one of its plumbers' chains changes.
///
/// `@unchecked Sendable`: immutable; `sole` is an unretained view of `chains[0]`, which `chains` keeps alive.
@usableFromInline
final class Route: @unchecked Sendable {
    /// Each a `Chain<P>`, typed `AnyObject` for the same reason as ``ObjectSlot``.
    @usableFromInline let chains: [AnyObject]
    /// The only chain, when there is exactly one: the usual wiring reads no array.
    @usableFromInline let sole: Unmanaged<AnyObject>?

    init(chains: [AnyObject]) {
        self.chains = chains
        sole = chains.count == 1 ? Unmanaged.passUnretained(chains[0]) : nil
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
/// `@unchecked Sendable`: `retired` is only touched under `lock`; the rest is atomic.
@usableFromInline
final class RouteSlot: @unchecked Sendable {
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

    /// Starts borrowing the published route; nil when there is none. Pair with ``leave()``.
    @inlinable @inline(__always)
    func enter() -> Unmanaged<Route>? {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        guard let raw = published.load(ordering: .sequentiallyConsistent) else { return nil }
        return Unmanaged.fromOpaque(raw)
    }

    /// Stops borrowing; the last emit to leave releases retired routes.
    @inlinable @inline(__always)
    func leave() {
        let before = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).oldValue
        if before == 1 && hasRetired.load(ordering: .sequentiallyConsistent) {
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
