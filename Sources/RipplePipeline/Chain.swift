import RippleCore

/// A stage as the plumber stores it: continuation style or async.
@usableFromInline
enum AnyStage<P: Packet>: Sendable {
    case continuation(any PipelineStage<P>)
    case async(any AsyncPipelineStage<P>)

    var name: String {
        switch self {
        case .continuation(let stage): stage.name
        case .async(let stage): stage.name
        }
    }
}

/// An immutable snapshot of a plumber's stages and handlers; a packet runs through the snapshot taken when it entered.
///
/// The plumber builds a new one whenever a stage or handler changes, so running a packet takes one lock (to read the
/// current snapshot) and no lock while stages run. A continuation called after the plumber was freed finds its core
/// shut down and stops.
///
/// The running path is `@inlinable` so it is specialised for the client's packet type: unspecialised, every stage
/// paid several generic-metadata lookups (`NextBox<P>`, `Next<P>`, `AnyStage<P>`), more than the stage itself.
@usableFromInline
final class Chain<P: Packet>: Sendable {
    @usableFromInline let stages: [AnyStage<P>]
    @usableFromInline let infos: [StageInfo]
    @usableFromInline let onOutput: (@Sendable (P) -> Void)?
    let onBlocked: (@Sendable (P, StageInfo) -> Void)?
    let onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?
    /// Strong: the core never holds a chain once its plumber is gone, so this cycle does not outlive the plumber.
    @usableFromInline let core: PlumberCore<P>
    /// Guards the slow-path flags of this chain's ``NextBox``es (continuations called late or kept by a stage).
    let lock = Lock()

    init(stages: [AnyStage<P>], infos: [StageInfo], onOutput: (@Sendable (P) -> Void)?,
         onBlocked: (@Sendable (P, StageInfo) -> Void)?, onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?,
         core: PlumberCore<P>) {
        self.stages = stages
        self.infos = infos
        self.onOutput = onOutput
        self.onBlocked = onBlocked
        self.onFailure = onFailure
        self.core = core
    }

    /// Runs `packet` from stage `start` on.
    ///
    /// The synchronous path takes no lock; only the rare paths (an async stage, an outcome without a handler, a late
    /// or dropped continuation) ask the core whether the plumber is still alive.
    @inlinable
    func run(from start: Int, _ packet: P, sink: ResultSink<P>?) {
        guard start < stages.count else {
            deliverOutput(packet, sink: sink)
            return
        }
        switch stages[start] {
        case .continuation(let stage):
            var box = NextBox(chain: self, index: start, packet: packet, sink: sink)
            stage.receive(packet, next: Next(box: box))
            let uniquelyHeld = isKnownUniquelyReferenced(&box)
            box.receiveReturned(uniquelyHeld: uniquelyHeld)
        // Releasing `box` here, uncalled and unkept, reports the block from its deinit.
        case .async(let stage):
            startAsync(stage, at: start, packet, sink: sink)
        }
    }

    @usableFromInline
    func startAsync(_ stage: any AsyncPipelineStage<P>, at index: Int, _ packet: P, sink: ResultSink<P>?) {
        core.startAsync(stage, at: index, packet, chain: self, sink: sink)
    }

    @inlinable
    func deliverOutput(_ packet: P, sink: ResultSink<P>?) {
        if let onOutput, sink == nil {
            onOutput(packet)
        } else {
            deliverOutputSlowly(packet, sink: sink)
        }
    }

    @usableFromInline
    func deliverOutputSlowly(_ packet: P, sink: ResultSink<P>?) {
        if let onOutput {
            onOutput(packet)
        } else if sink == nil {
            core.countUnhandled(\.outputs)
        }
        sink?.deliver(.output(packet))
    }

    func reportBlocked(_ packet: P, at index: Int, sink: ResultSink<P>?) {
        let stage = infos[index]
        if let onBlocked {
            onBlocked(packet, stage)
        } else if sink == nil {
            core.countUnhandled(\.blocked)
        }
        sink?.deliver(.blocked(packet, stage: stage))
    }

    func reportFailure(_ packet: P, at index: Int, error: any Error, sink: ResultSink<P>?) {
        let stage = infos[index]
        if let onFailure {
            onFailure(packet, stage, error)
        } else if sink == nil {
            core.countUnhandled(\.failures)
        }
        sink?.deliver(.failed(packet, stage: stage, error: error))
    }
}
