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
    /// Calls a continuation-style stage. A closure made where the stage was added (``Plumber/addPipeline(_:)`` is
    /// inlinable), so it is specialised for the stage's type: calling the stage through the runner's vtable and the
    /// protocol witness cost more than a short stage itself.
    @usableFromInline final let call: @Sendable (P, Next<P>) -> Void

    init(isAsync: Bool, name: String, call: @escaping @Sendable (P, Next<P>) -> Void) {
        self.isAsync = isAsync
        self.name = name
        self.call = call
    }

    /// Runs an asynchronous stage.
    func process(_ packet: P) async throws -> P? {
        preconditionFailure("RipplePipeline: process(_:) called on a continuation-style stage")
    }
}

@usableFromInline
final class ContinuationRunner<Stage: PipelineStage>: StageRunner<Stage.PacketType>, @unchecked Sendable {
    /// `call` is `stage.receive`, made by the caller where `Stage` is concrete.
    @usableFromInline
    init(_ stage: Stage, call: @escaping @Sendable (Stage.PacketType, Next<Stage.PacketType>) -> Void) {
        // The name is user code: asked once, here, outside any lock.
        super.init(isAsync: false, name: stage.name, call: call)
    }
}

final class AsyncRunner<Stage: AsyncPipelineStage>: StageRunner<Stage.PacketType>, @unchecked Sendable {
    let stage: Stage

    init(_ stage: Stage) {
        self.stage = stage
        super.init(isAsync: true, name: stage.name) { _, _ in
            preconditionFailure("RipplePipeline: an asynchronous stage was called with a continuation")
        }
    }

    override func process(_ packet: Stage.PacketType) async throws -> Stage.PacketType? {
        try await stage.process(packet)
    }
}
