/// A continuation-style stage made from a closure, for stages too small to deserve a type.
///
/// ```swift
/// plumber.addPipeline(ClosureStage("EvenOnly") { (packet: Number, next) in
///     if packet.value.isMultiple(of: 2) { next(packet) }
/// })
/// ```
public struct ClosureStage<PacketType: Packet>: PipelineStage {
    public let name: String
    private let body: @Sendable (PacketType, Next<PacketType>) -> Void

    public init(_ name: String = "ClosureStage",
                _ body: @escaping @Sendable (PacketType, Next<PacketType>) -> Void) {
        self.name = name
        self.body = body
    }

    public func receive(_ packet: PacketType, next: Next<PacketType>) {
        body(packet, next)
    }
}

/// An asynchronous stage made from a closure: return the packet to pass on, `nil` to block, or throw to fail.
public struct AsyncClosureStage<PacketType: Packet>: AsyncPipelineStage {
    public let name: String
    private let body: @Sendable (PacketType) async throws -> PacketType?

    public init(_ name: String = "AsyncClosureStage",
                _ body: @escaping @Sendable (PacketType) async throws -> PacketType?) {
        self.name = name
        self.body = body
    }

    public func process(_ packet: PacketType) async throws -> PacketType? {
        try await body(packet)
    }
}
