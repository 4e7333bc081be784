/// A ready-made ``PacketSource`` to subclass, as the seed's ports are classes: subclass it and call
/// ``PacketSource/emit(_:portNumber:)`` when something happens.
///
/// ```swift
/// final class ShareEventPort: PacketPort<SharePacket> {
///     func receiveShareEvent(_ event: [String: String]) {
///         emit(SharePacket(docId: event["docId"] ?? "", userId: event["userId"] ?? ""), portNumber: 100)
///     }
/// }
/// ```
///
/// `PacketPort` is not `Sendable`, so a subclass needs no annotation to exist, and its own state is never claimed
/// thread-safe on its behalf. To emit from several threads, adopt ``PacketSource`` in a final class of `let`s and
/// declare it `Sendable` (checked by the compiler), or declare your subclass `@unchecked Sendable` if you guard its
/// state yourself.
open class PacketPort<P: Packet>: PacketSource {
    public let packetOutlet = PacketOutlet<P>()

    public init() {}
}
