import RippleCore

/// Produces packets: the seed's port. Subclass it and call ``emit(_:portNumber:)`` when something happens.
///
/// ```swift
/// final class ShareEventPort: Port<SharePacket> {
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
/// `@unchecked Sendable`: the wiring list is only touched under `ObjectList`'s lock; emitting is thread-safe.
open class Port<P: Packet>: @unchecked Sendable {
    // Cores, not plumbers: a freed plumber shuts its core down; the port skips it and prunes it on the next wiring.
    // Each entry is a `PlumberCore<P>`.
    @usableFromInline let plumbers = ObjectList()

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
        // The usual wiring, one plumber: its chain is read under the wiring lock (the core's slot lock nests inside
        // it, never the other way round), so neither the list nor the core is copied and retained per packet.
        let single = plumbers.withSoleObject { sole in
            sole._withUnsafeGuaranteedRef { unsafeDowncast($0, to: PlumberCore<P>.self).currentChain }
        }
        if let single {
            guard let chain = single else { return false }
            chain.run(from: 0, stamped, sink: nil)
            return true
        }
        var delivered = false
        for target in plumbers.load() {
            let core = unsafeDowncast(target, to: PlumberCore<P>.self)
            guard let chain = core.currentChain else { continue }
            delivered = true
            chain.run(from: 0, stamped, sink: nil)
        }
        return delivered
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
    }
}

let portCounter = LiveObjectCounter("RipplePipeline.Port")
