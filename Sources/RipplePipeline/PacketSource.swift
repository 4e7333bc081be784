/// Anything that produces packets — the seed's `PortDelegate`, a protocol any object adopts: store a
/// ``PacketOutlet`` and call ``emit(_:portNumber:)`` when something happens.
///
/// ```swift
/// final class ShareEventPort: PacketSource, Sendable {
///     let packetOutlet = PacketOutlet<SharePacket>()
///
///     func receiveShareEvent(_ event: [String: String]) {
///         emit(SharePacket(docId: event["docId"] ?? "", userId: event["userId"] ?? ""), portNumber: 100)
///     }
/// }
/// ```
///
/// ``PacketPort`` is a ready-made source to subclass instead. A source is wired to a plumber the moment it is added
/// with ``Plumber/addPort(_:)``, and may feed several plumbers (each receives every packet, in the order the source
/// was added to them). The plumber keeps its sources alive; a source holds its plumbers weakly, so a freed plumber
/// simply stops receiving.
///
/// The protocol does not require `Sendable`: the outlet is thread-safe, and whether the rest of your type is, is
/// yours to say. Add `Sendable` to emit from several threads — a final class whose stored properties are `let`s of
/// `Sendable` types gets it checked by the compiler — or make the source `@MainActor` to emit from the main actor
/// only.
public protocol PacketSource<PacketType>: AnyObject {
    associatedtype PacketType: Packet

    /// The source's wiring; a stored `let`, made with the source (see ``PacketOutlet``).
    var packetOutlet: PacketOutlet<PacketType> { get }
}

extension PacketSource {
    /// Stamps `portNumber` into `packet` and sends it through every plumber this source is wired to, synchronously
    /// up to the first stage that continues later.
    ///
    /// - Returns: whether at least one live plumber received the packet. `false` means nobody was listening: the
    ///   packet went nowhere (not wired yet, or every plumber was freed).
    @inlinable @discardableResult
    public func emit(_ packet: PacketType, portNumber: Int) -> Bool {
        packetOutlet.emit(packet, portNumber: portNumber)
    }

    /// Whether a live plumber would receive what this source emits now.
    public var isWired: Bool {
        packetOutlet.isWired
    }
}
