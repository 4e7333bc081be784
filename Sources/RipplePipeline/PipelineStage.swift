/// A stage of a pipeline in the seed's continuation style: it receives a packet and either passes a packet on by
/// calling `next`, or blocks it by never calling `next`.
///
/// ```swift
/// struct CheckLogin: PipelineStage {
///     let isLoggedIn: @Sendable () -> Bool
///     func receive(_ packet: SharePacket, next: Next<SharePacket>) {
///         if isLoggedIn() { next(packet) }      // pass on; otherwise the packet is blocked here
///     }
/// }
/// ```
///
/// - `next` may be called during `receive` (the rest of the chain runs inside the call, as in the seed), or kept and
///   called later from any thread (the rest of the chain runs on that thread).
/// - Calling `next` twice fans out: the rest of the chain runs once per call, so the output can fire twice.
/// - A packet is **blocked** when every copy of its `next` is released without having been called: when `receive`
///   returns without calling or keeping it, ``Plumber/onBlocked(_:)`` fires at once; a kept `next` that is dropped
///   later reports the block when it is freed.
///
/// A stage holds no link to the following stage; the plumber holds the order, so one stage value may appear several
/// times in one plumber and in several plumbers.
public protocol PipelineStage<PacketType>: Sendable {
    associatedtype PacketType: Packet

    /// How reports name the stage; defaults to the type name.
    var name: String { get }

    /// Handles `packet`; calls `next` with the packet (or a new one) to continue, or lets `next` go to block.
    func receive(_ packet: PacketType, next: Next<PacketType>)
}

extension PipelineStage {
    public var name: String {
        String(describing: Self.self)
    }
}
