import RippleCore

/// Produces packets: the seed's port. Subclass it and call ``emit(_:portNumber:)`` when something happens.
///
/// ```swift
/// final class ShareEventPort: PacketPort<SharePacket> {
///     func receiveShareEvent(_ event: [String: String]) {
///         emit(SharePacket(docId: event["docId"] ?? "", userId: event["userId"] ?? ""), portNumber: 100)
///     }
/// }
/// ```
///
/// A port is wired to a plumber the moment it is added with ``Plumber/addPort(_:)``, and may feed several plumbers
/// (each receives every packet, in the order the port was added to them). The plumber keeps its ports alive; a port
/// holds its plumbers weakly, so a freed plumber simply stops receiving.
///
/// `@unchecked Sendable`: the wiring list is only touched under `ObjectList`'s lock, the route is a `RouteSlot`.
open class PacketPort<P: Packet>: @unchecked Sendable {
    // Cores, not plumbers: a freed plumber shuts its core down; the port skips it and prunes it on the next wiring.
    // Each entry is a `PlumberCore<P>`.
    let plumbers = ObjectList()
    /// What `emit` runs: the wired plumbers' current chains.
    @usableFromInline let route = RouteSlot()

    public init() {
        portCounter.increment()
    }

    deinit {
        portCounter.decrement()
    }

    /// Stamps `portNumber` into `packet` and sends it through every plumber this port is wired to, synchronously up
    /// to the first stage that continues later.
    ///
    /// - Returns: whether at least one live plumber received the packet. `false` means nobody was listening: the
    ///   packet went nowhere (not wired yet, or every plumber was freed).
    @inlinable @discardableResult
    public final func emit(_ packet: P, portNumber: Int) -> Bool {
        var stamped = packet
        stamped.portNumber = portNumber
        // The route is borrowed, not retained, and read without a lock (see `enterClaimingFrame()`); it keeps its chains alive.
        let claim = route.snapshot.enterClaimingFrame()
        defer { route.snapshot.leave(claim) }
        guard let current = claim.route else { return false }
        return current._withUnsafeGuaranteedRef { current in
            // The usual case inline: one plumber and a free frame.
            if let sole = current.sole, let frame = claim.frame {
                current.frameRefs[frame]._withUnsafeGuaranteedRef { frame in
                    sole._withUnsafeGuaranteedRef {
                        unsafeDowncast($0, to: Chain<P>.self).run(stamped, in: unsafeDowncast(frame, to: FrameHead<P>.self))
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
            let chain = unsafeDowncast(route.chains[index], to: Chain<P>.self)
            if let frame = claim.frame {
                route.frameRefs[index &* Route.frameCount &+ frame]._withUnsafeGuaranteedRef { frame in
                    chain.run(packet, in: unsafeDowncast(frame, to: FrameHead<P>.self))
                }
            } else {
                chain.run(from: 0, packet, sink: nil)
            }
        }
        return !route.chains.isEmpty
    }

    final var wiredPlumbers: [PlumberCore<P>] {
        plumbers.load().map { unsafeDowncast($0, to: PlumberCore<P>.self) }
    }

    /// Whether a live plumber would receive what this port emits now.
    public final var isWired: Bool {
        wiredPlumbers.contains { $0.isAlive }
    }

    func wire(to core: PlumberCore<P>) {
        // Liveness is asked outside our lock (it takes the core's lock); a core never comes back to life.
        let dead = wiredPlumbers.filter { !$0.isAlive }
        plumbers.update { list in
            list.removeAll { old in dead.contains { $0 === old } }
            if !list.contains(where: { $0 === core }) { list.append(core) }
        }
        reroute()
    }

    /// Publishes the current chains of the wired plumbers; called after the wiring or one of their chains changed.
    /// Reading the chains inside `replace` orders concurrent calls: the last one reads the newest chains.
    func reroute() {
        let garbage = route.snapshot.replace {
            let chains: [AnyObject] = wiredPlumbers.compactMap { $0.currentChain }
            return chains.isEmpty ? nil : Route(chains: chains) { FrameHead<P>() }
        }
        // A route may hold the last reference to a chain, whose stages and handlers are user code: released here,
        // outside the lock.
        withExtendedLifetime(garbage) {}
    }
}

let portCounter = LiveObjectCounter("RipplePipeline.PacketPort")
