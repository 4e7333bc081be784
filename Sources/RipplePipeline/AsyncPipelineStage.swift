/// A stage written with Swift concurrency: it returns the packet to pass on, `nil` to block it, or throws to fail it.
///
/// ```swift
/// struct RequestDocLink: AsyncPipelineStage {
///     func process(_ packet: SharePacket) async throws -> SharePacket? {
///         var packet = packet
///         packet.link = try await linkService.link(for: packet.docId)
///         return packet
///     }
/// }
/// ```
///
/// The plumber runs it in a task; the stages after it run on that task once it returns. The task is cancelled when
/// the plumber is freed, or when the task awaiting ``Plumber/process(_:portNumber:)`` is cancelled, so `process`
/// should check for cancellation (any `try await` on a cancellable call does). A thrown error, including
/// `CancellationError`, reaches ``Plumber/onFailure(_:)`` — unless the plumber is gone, in which case nothing is
/// reported.
public protocol AsyncPipelineStage<PacketType>: Sendable {
    associatedtype PacketType: Packet

    /// How reports name the stage; defaults to the type name.
    var name: String { get }

    /// The packet to pass on (the same one or a new one), or `nil` to block it here.
    func process(_ packet: PacketType) async throws -> PacketType?
}

extension AsyncPipelineStage {
    public var name: String {
        String(describing: Self.self)
    }
}
