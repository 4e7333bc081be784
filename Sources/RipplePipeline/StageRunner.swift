/// A stage as the plumber stores it: a class per stage kind, so running one is a vtable call on a borrowed
/// reference.
///
/// It replaces an enum of existentials, whose `switch` copied the stage existential (a value-witness call and its
/// destroy) at every stage of every packet.
///
/// `@unchecked Sendable`: immutable after init; the subclasses hold only `Sendable` stages.
@usableFromInline
class StageRunner<P: Packet>: @unchecked Sendable {
    /// Asynchronous stages are started as tasks; the others are called with a ``Next``.
    @usableFromInline final let isAsync: Bool
    final let name: String

    init(isAsync: Bool, name: String) {
        self.isAsync = isAsync
        self.name = name
    }

    /// Calls a continuation-style stage.
    @usableFromInline
    func receive(_ packet: P, next: Next<P>) {
        preconditionFailure("RipplePipeline: receive(_:next:) called on an asynchronous stage")
    }

    /// Runs an asynchronous stage.
    func process(_ packet: P) async throws -> P? {
        preconditionFailure("RipplePipeline: process(_:) called on a continuation-style stage")
    }
}

final class ContinuationRunner<Stage: PipelineStage>: StageRunner<Stage.PacketType>, @unchecked Sendable {
    let stage: Stage

    init(_ stage: Stage) {
        self.stage = stage
        // The name is user code: asked once, here, outside any lock.
        super.init(isAsync: false, name: stage.name)
    }

    override func receive(_ packet: Stage.PacketType, next: Next<Stage.PacketType>) {
        stage.receive(packet, next: next)
    }
}

final class AsyncRunner<Stage: AsyncPipelineStage>: StageRunner<Stage.PacketType>, @unchecked Sendable {
    let stage: Stage

    init(_ stage: Stage) {
        self.stage = stage
        super.init(isAsync: true, name: stage.name)
    }

    override func process(_ packet: Stage.PacketType) async throws -> Stage.PacketType? {
        try await stage.process(packet)
    }
}
