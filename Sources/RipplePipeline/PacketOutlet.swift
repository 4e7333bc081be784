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
        guard let current = claim.route else { return false }
        return current.with { current in
            // The usual case inline: one plumber and a free frame.
            if let sole = current.sole, let frame = claim.frame {
                current.frameRefs[frame].with { frame in
                    sole.with {
                        // Exact types: this outlet's routes hold only `Chain<P>`s (its plumbers' current chains)
                        // and the `FrameHead<P>`s `reroute()` makes, both final classes.
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

    var wiredPlumbers: [PlumberCore<P>] {
        // Exact type: `wire(to:)` is the only writer of the list, and appends `PlumberCore<P>`s (a final class).
        wiring.plumbers.load().map { unsafeDowncast($0, to: PlumberCore<P>.self) }
    }

    /// Whether a live plumber would receive what this port emits now.
    var isWired: Bool {
        wiredPlumbers.contains { $0.isAlive }
    }

    func wire(to core: PlumberCore<P>) {
        // Liveness is asked outside our lock (it takes the core's lock); a core never comes back to life.
        let dead = wiredPlumbers.filter { !$0.isAlive }
        wiring.plumbers.update { list in
            list.removeAll { old in dead.contains { $0 === old } }
            if !list.contains(where: { $0 === core }) { list.append(core) }
        }
        reroute()
    }

    /// Publishes the current chains of the wired plumbers; called after the wiring or one of their chains changed.
    /// Reading the chains inside `replace` orders concurrent calls: the last one reads the newest chains.
    func reroute() {
        let garbage = wiring.snapshot.replace {
            let chains: [AnyObject] = wiredPlumbers.compactMap { $0.currentChain }
            return chains.isEmpty ? nil : Route(chains: chains) { FrameHead<P>() }
        }
        // A route may hold the last reference to a chain, whose stages and handlers are user code: released here,
        // outside the lock.
        withExtendedLifetime(garbage) {}
    }
}
