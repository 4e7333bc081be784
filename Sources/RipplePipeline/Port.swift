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
/// `@unchecked Sendable`: the wiring list is only touched under its `Locked` lock; emitting is thread-safe.
open class Port<P: Packet>: @unchecked Sendable {
    private let plumbers = Locked<[WeakPlumber<P>]>([])

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
        let targets = wiredPlumbers
        var delivered = false
        for target in targets {
            guard let plumber = target.plumber else { continue }
            delivered = true
            plumber.start(stamped)
        }
        return delivered
    }

    @usableFromInline
    final var wiredPlumbers: [WeakPlumber<P>] {
        plumbers.value
    }

    /// Whether a live plumber would receive what this port emits now.
    public final var isWired: Bool {
        plumbers.withLock { list in list.contains { $0.plumber != nil } }
    }

    func wire(to plumber: Plumber<P>) {
        plumbers.withLock { list in
            list.removeAll { $0.plumber == nil }
            if !list.contains(where: { $0.plumber === plumber }) {
                list.append(WeakPlumber(plumber: plumber))
            }
        }
    }
}

/// A class, so copying the wiring list retains boxes instead of copying weak references (each copy of a weak
/// reference goes through the plumber's side table).
@usableFromInline
final class WeakPlumber<P: Packet>: Sendable {
    @usableFromInline weak let plumber: Plumber<P>?

    init(plumber: Plumber<P>) {
        self.plumber = plumber
    }
}

let portCounter = LiveObjectCounter("RipplePipeline.Port")
