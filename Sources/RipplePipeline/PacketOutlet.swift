import RippleCore

/// The wiring a port stores: the plumbers it feeds and what its ``PacketSource/emit(_:portNumber:)`` runs — the
/// seed's `throwPacketBlock` property, which its plumber installs on every port.
///
/// A ``PacketSource`` keeps one in a stored property, made once with the port:
///
/// ```swift
/// final class ShareEventPort: PacketSource, Sendable {
///     let packetOutlet = PacketOutlet<SharePacket>()
/// }
/// ```
///
/// Copies share the same wiring, so a computed property that makes a new outlet on each read would give the port a
/// different, never-wired outlet every time: store it. It is `Sendable`, so a port made of `let`s is `Sendable` too.
public struct PacketOutlet<P: Packet>: Sendable {
    @usableFromInline let wiring: PortWiring

    /// A new outlet, wired to no plumber yet.
    public init() {
        wiring = PortWiring()
    }

    /// Stamps `portNumber` into `packet` and sends it through every plumber this port is wired to, synchronously up
    /// to the first stage that continues later.
    ///
    /// - Returns: whether at least one live plumber received the packet. `false` means nobody was listening: the
    ///   packet went nowhere (not wired yet, or every plumber was freed).
    @inlinable
    func emit(_ packet: P, portNumber: Int) -> Bool {
        var stamped = packet
        stamped.portNumber = portNumber
        // The route is borrowed, not retained, and read without a lock (see `enterClaimingFrame()`); it keeps its
        // chains alive.
        let claim = wiring.snapshot.enterClaimingFrame()
        defer { wiring.snapshot.leave(claim) }
        guard let current = claim.route else { return emitThroughNewRoute(stamped, claim: claim) }
        return current.with { current in
            // The usual case inline: one plumber and a free frame.
            if let sole = current.sole, let frame = claim.frame {
                current.frameRefs[frame].with { frame in
                    sole.with {
                        // Exact types: this outlet's routes hold only `Chain<P>`s (its plumbers' current chains)
                        // and the `FrameHead<P>`s `routeBuiltIfStale()` makes, both final classes.
                        #if RIPPLE_INTERNAL_CHECKS
                        precondition(type(of: $0) == Chain<P>.self && type(of: frame) == FrameHead<P>.self,
                                     "RipplePipeline: a route of another packet type in PacketOutlet<\(P.self)>")
                        #endif
                        return unsafeDowncast($0, to: Chain<P>.self)
                            .run(stamped, in: unsafeDowncast(frame, to: FrameHead<P>.self))
                    }
                }
                return true
            }
            return Self.runEverywhere(stamped, through: current, claim: claim)
        }
    }

    /// Runs `packet` through every chain of `route`, in the frames `claim` holds when it holds one.
    @inlinable @inline(never)
    static func runEverywhere(_ packet: P, through route: Route, claim: RouteClaim) -> Bool {
        for index in route.chains.indices {
            // Exact types, as in `emit` (checked there under RIPPLE_INTERNAL_CHECKS).
            #if RIPPLE_INTERNAL_CHECKS
            precondition(type(of: route.chains[index]) == Chain<P>.self, "RipplePipeline: a foreign chain in a route")
            #endif
            let chain = unsafeDowncast(route.chains[index], to: Chain<P>.self)
            if let frame = claim.frame {
                route.frameRefs[index &* Route.frameCount &+ frame].with { frame in
                    chain.run(packet, in: unsafeDowncast(frame, to: FrameHead<P>.self))
                }
            } else {
                chain.run(from: 0, packet, sink: nil)
            }
        }
        return !route.chains.isEmpty
    }

    /// An emit that found no route published: a change took it down (build it now), or no live plumber is wired.
    @usableFromInline @inline(never)
    func emitThroughNewRoute(_ packet: P, claim: RouteClaim) -> Bool {
        guard let route = routeBuiltIfStale() else { return false }
        // Held strongly (this emit is not counted as a reader of a route published after it entered); `claim`'s frame
        // bit guards that frame index in every route of the port.
        return Self.runEverywhere(packet, through: route, claim: claim)
    }

    var wiredPlumbers: [PlumberCore<P>] {
        // Exact type: `wire(to:)` is the only writer of the list, and appends `PlumberCore<P>`s (a final class).
        wiring.plumbers.load().map { unsafeDowncast($0, to: PlumberCore<P>.self) }
    }

    /// Whether a live plumber would receive what this port emits now.
    var isWired: Bool {
        wiredPlumbers.contains { $0.isAlive }
    }

    /// Adds `core` to the plumbers this port feeds. Call once per plumber (``Plumber/addPort(_:)`` checks).
    func wire(to core: PlumberCore<P>) {
        wiring.plumbers.update { $0.append(core) }
        reroute()
    }

    /// Takes the route down after the wiring or one of the plumbers' chains changed; the next emit builds the new one
    /// (see ``PortWiring``).
    func reroute() {
        let garbage = wiring.routing.withLock { routing in
            routing.isStale = true
            return wiring.snapshot.replace { nil }
        }
        // A route may hold the last reference to a chain, whose stages and handlers are user code: released here,
        // outside the lock.
        withExtendedLifetime(garbage) {}
    }

    /// The route to run now: built from the live plumbers' current chains and published if a change took the last
    /// one down, else the one published; nil when no live plumber is wired. Prunes the freed plumbers while building.
    func routeBuiltIfStale() -> Route? {
        var garbage: [Route] = []
        // Read under the lock, released after it: it may hold the last reference to a pruned core.
        var cores: [PlumberCore<P>] = []
        let route = wiring.routing.withLock { routing -> Route? in
            // Replaced only under this lock, so the published route stays alive while it is retained here.
            guard routing.isStale else { return wiring.snapshot.loadPublished()?.takeUnretainedValue() }
            routing.isStale = false
            cores = wiredPlumbers
            routing.chainsRouted += cores.count
            // A core without a chain is shut down for good (its plumber was freed).
            let chains: [AnyObject] = cores.compactMap { $0.currentChain }
            if chains.count < cores.count {
                let dead = Set(cores.lazy.filter { $0.currentChain == nil }.map { ObjectIdentifier($0) })
                wiring.plumbers.update { list in list.removeAll { dead.contains(ObjectIdentifier($0)) } }
            }
            let route = chains.isEmpty ? nil : Route(chains: chains) { FrameHead<P>() }
            garbage = wiring.snapshot.replace { route }
            return route
        }
        withExtendedLifetime((garbage, cores)) {}
        return route
    }

    /// The chains the builds of this port's route went through so far (see ``PortWiring/Routing``).
    var chainsRouted: Int {
        wiring.routing.withLock { $0.chainsRouted }
    }
}
