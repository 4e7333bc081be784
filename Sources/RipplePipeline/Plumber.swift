import RippleCore

/// The seed's PipelinePlumber: wires ports to an ordered chain of stages and hands what leaves the last stage to the
/// output.
///
/// ```swift
/// let plumber = Plumber<SharePacket>()
///     .addPort(shareEventPort)
///     .addPipeline(CheckLogin())
///     .addPipeline(CheckDocAttribute())
///     .addPipeline(CheckUserAttribute())
///     .addPipeline(RequestDocLink())
///     .onOutput { packet in print("link:", packet.link ?? "-") }
///     .onBlocked { packet, stage in print("blocked by", stage.name) }
/// ```
///
/// - Ports are wired the moment they are added, before or after the output is set.
/// - The plumber holds the stage order; a stage value may appear several times and in several plumbers.
/// - With no stages, packets go straight to the output.
/// - Each packet runs with the stages and handlers set when it entered; changes apply to later packets.
/// - Every packet ends in exactly one of the three outcomes per path through the chain (a fan-out makes several
///   paths): output, blocked or failed. An outcome whose handler is not set is counted in ``unhandled`` rather than
///   dropped silently.
/// - A plumber freed while a packet waits in a kept ``Next`` or an ``AsyncPipelineStage`` drops that packet: its
///   asynchronous stages are cancelled and nothing is reported.
/// - Thread-safe: emit from any thread; no lock is held while a stage or handler runs.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its `Locked` lock.
public final class Plumber<P: Packet>: @unchecked Sendable {
    @usableFromInline let core = PlumberCore<P>()
    private let ports = Locked(Ports())

    /// The wired sources.
    private struct Ports {
        /// Each wired source's outlet, in wiring order.
        var outlets: [PacketOutlet<P>] = []
        /// The sources themselves, which the plumber keeps alive as the seed's `portArr` does. Never touched but to
        /// keep them alive and release them, so a source that is not `Sendable` may be held here.
        var sources: [AnyObject] = []
        /// The outlets' wirings, to tell a port added again in O(1): asking every wired port cost n² for n ports,
        /// through unspecialised copies of each `(outlet, source)` pair (2,000 ports: 0.18 s in release).
        var wirings: Set<ObjectIdentifier> = []
    }

    public init() {
        plumberCounter.increment()
    }

    deinit {
        core.shutDown()
        reroutePorts()
        plumberCounter.decrement()
    }

    /// The ports run the chains their route was built with: take their routes down after every change, so that their
    /// next emits build routes with the current chain.
    @usableFromInline
    func reroutePorts() {
        for outlet in ports.withLock({ $0.outlets }) { outlet.reroute() }
    }

    // MARK: Wiring

    /// Wires `port` — a ``PacketPort`` subclass or any ``PacketSource`` — to this plumber now: from here on, every
    /// packet it emits runs through the chain. Adding the same port twice wires it once. The plumber keeps the port
    /// alive (an object that owns its plumber and is also its port makes a cycle: give it a port of its own).
    @discardableResult
    public func addPort(_ port: some PacketSource<P>) -> Plumber<P> {
        let outlet = port.packetOutlet
        let isNew = ports.withLock { ports -> Bool in
            // The wiring lives as long as the source, which this plumber keeps: its identifier is not reused.
            guard ports.wirings.insert(ObjectIdentifier(outlet.wiring)).inserted else { return false }
            ports.outlets.append(outlet)
            ports.sources.append(port)
            return true
        }
        if isNew { outlet.wire(to: core) }
        return self
    }

    /// Appends a continuation-style stage to the chain.
    @inlinable @discardableResult
    public func addPipeline(_ stage: some PipelineStage<P>) -> Plumber<P> {
        core.append(Self.runner(for: stage))
        reroutePorts()
        return self
    }

    /// Appends `stages` in order, as that many `addPipeline(_:)` calls would, with one snapshot of the chain.
    func addPipelines(_ stages: [any PipelineStage<P>]) {
        core.append(contentsOf: stages.map { Self.runner(for: $0) })
        reroutePorts()
    }

    /// Inlinable so the call closure is specialised for the stage's type (see `StageRunner.call`).
    @inlinable
    static func runner(for stage: some PipelineStage<P>) -> StageRunner<P> {
        ContinuationRunner(stage) { packet, next in stage.receive(packet, next: next) }
    }

    /// Appends an asynchronous stage to the chain.
    @discardableResult
    public func addPipeline(_ stage: some AsyncPipelineStage<P>) -> Plumber<P> {
        core.append(AsyncRunner(stage))
        reroutePorts()
        return self
    }

    /// Sets what receives the packets that leave the last stage (the seed's `throwPacketBlock`); replaces the
    /// previous handler. Runs on the thread that finished the last stage; for main-actor code use
    /// ``onMainActorOutput(on:_:)``.
    @discardableResult
    public func onOutput(_ handler: @escaping @Sendable (P) -> Void) -> Plumber<P> {
        core.setOutput(handler)
        reroutePorts()
        return self
    }

    /// Sets what hears about packets a stage blocked: the packet that stage received and the stage; replaces the
    /// previous handler. Main-actor form: ``onMainActorBlocked(on:_:)``.
    @discardableResult
    public func onBlocked(_ handler: @escaping @Sendable (P, StageInfo) -> Void) -> Plumber<P> {
        core.setBlocked(handler)
        reroutePorts()
        return self
    }

    /// Sets what hears about packets an ``AsyncPipelineStage`` failed by throwing; replaces the previous handler.
    /// Main-actor form: ``onMainActorFailure(on:_:)``.
    @discardableResult
    public func onFailure(_ handler: @escaping @Sendable (P, StageInfo, any Error) -> Void) -> Plumber<P> {
        core.setFailure(handler)
        reroutePorts()
        return self
    }

    // MARK: Running

    /// Stamps `portNumber` into `packet`, runs it through the chain and returns how it left: the output packet, or
    /// the stage that blocked or failed it.
    ///
    /// The handlers run as for a packet from a port. When a stage fans out, the first outcome is returned and the
    /// others still reach the handlers. Cancelling the awaiting task cancels the packet's asynchronous stages; a
    /// stage that then throws makes the result ``PipelineResult/failed(_:stage:error:)``.
    public func process(_ packet: P, portNumber: Int) async -> PipelineResult<P> {
        var stamped = packet
        stamped.portNumber = portNumber
        return await process(stamped)
    }

    /// Runs `packet` as it is (its port number untouched) and returns how it left.
    public func process(_ packet: P) async -> PipelineResult<P> {
        // The plumber is alive for the whole call (we are running one of its methods), so the chain exists and
        // every path ends in an outcome that resumes us.
        let chain = core.currentChain.unsafelyUnwrapped
        let sink = ResultSink<P>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                sink.install(continuation)
                withExtendedLifetime(sink) { chain.run(from: 0, packet, sink: Borrowed(sink)) }
            }
        } onCancel: {
            sink.cancel()
        }
    }

    /// Runs `packet` as it is on the calling thread and returns its first outcome — or nil and the first stage that
    /// kept its `next`, when the chain returned before any outcome (for the synchronous `runSerially(_:_:)`).
    func processSynchronously(_ packet: P) -> (result: PipelineResult<P>?, keptAt: Int?) {
        let chain = core.currentChain.unsafelyUnwrapped
        let sink = ResultSink<P>()
        // In a drain of its own: called from a stage of a deep chain, the thread's running drain would put this
        // chain's stages past a cut off until after this call returned, with no outcome yet.
        DeepChainDrain.current.isolated {
            withExtendedLifetime(sink) { chain.run(from: 0, packet, sink: Borrowed(sink)) }
        }
        return (sink.firstResult, sink.stageThatKeptNext)
    }

    // MARK: Inspecting

    /// The stages in order.
    public var stages: [StageInfo] {
        core.infos
    }

    /// How many ports are wired.
    public var portCount: Int {
        ports.withLock { $0.outlets.count }
    }

    /// Outcomes that had no handler set when they happened and that no ``process(_:portNumber:)`` caller took (a
    /// caller takes the first outcome of its packet only: the others of a fan-out count here).
    public var unhandled: UnhandledOutcomes {
        core.unhandled
    }
}

/// Outcomes a plumber counted because no handler was set for them, so a packet is never lost without a trace.
public struct UnhandledOutcomes: Sendable, Hashable {
    /// Packets that left the last stage while no ``Plumber/onOutput(_:)`` handler was set.
    public var outputs = 0
    /// Packets a stage blocked while no ``Plumber/onBlocked(_:)`` handler was set.
    public var blocked = 0
    /// Packets a stage failed while no ``Plumber/onFailure(_:)`` handler was set.
    public var failures = 0

    public init(outputs: Int = 0, blocked: Int = 0, failures: Int = 0) {
        self.outputs = outputs
        self.blocked = blocked
        self.failures = failures
    }

    /// All unhandled outcomes.
    public var total: Int { outputs + blocked + failures }
}

let plumberCounter = LiveObjectCounter("RipplePipeline.Plumber")
