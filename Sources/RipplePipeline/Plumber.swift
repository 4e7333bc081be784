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
    private struct State {
        var ports: [Port<P>] = []
        var stages: [AnyStage<P>] = []
        var infos: [StageInfo] = []
        var onOutput: (@Sendable (P) -> Void)?
        var onBlocked: (@Sendable (P, StageInfo) -> Void)?
        var onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?
        var chain: Chain<P>?
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var finishedEarly: Set<UInt64> = []
        var nextTaskID: UInt64 = 0
        var unhandled = UnhandledOutcomes()
    }

    private let state = Locked(State())

    public init() {
        plumberCounter.increment()
        rebuildChain()
    }

    deinit {
        let running = state.withLock { state -> [Task<Void, Never>] in
            defer { state.tasks = [:] }
            return Array(state.tasks.values)
        }
        for task in running { task.cancel() }
        plumberCounter.decrement()
    }

    // MARK: Wiring

    /// Wires `port` to this plumber now: from here on, every packet it emits runs through the chain. Adding the same
    /// port twice wires it once. The plumber keeps the port alive.
    @discardableResult
    public func addPort(_ port: Port<P>) -> Plumber<P> {
        let isNew = state.withLock { state -> Bool in
            if state.ports.contains(where: { $0 === port }) { return false }
            state.ports.append(port)
            return true
        }
        if isNew { port.wire(to: self) }
        return self
    }

    /// Appends a continuation-style stage to the chain.
    @discardableResult
    public func addPipeline(_ stage: some PipelineStage<P>) -> Plumber<P> {
        append(.continuation(stage))
    }

    /// Appends an asynchronous stage to the chain.
    @discardableResult
    public func addPipeline(_ stage: some AsyncPipelineStage<P>) -> Plumber<P> {
        append(.async(stage))
    }

    /// Sets what receives the packets that leave the last stage (the seed's `throwPacketBlock`); replaces the
    /// previous handler. Runs on the thread that finished the last stage.
    @discardableResult
    public func onOutput(_ handler: @escaping @Sendable (P) -> Void) -> Plumber<P> {
        configure { $0.onOutput = handler }
    }

    /// Sets what hears about packets a stage blocked: the packet that stage received and the stage; replaces the
    /// previous handler.
    @discardableResult
    public func onBlocked(_ handler: @escaping @Sendable (P, StageInfo) -> Void) -> Plumber<P> {
        configure { $0.onBlocked = handler }
    }

    /// Sets what hears about packets an ``AsyncPipelineStage`` failed by throwing; replaces the previous handler.
    @discardableResult
    public func onFailure(_ handler: @escaping @Sendable (P, StageInfo, any Error) -> Void) -> Plumber<P> {
        configure { $0.onFailure = handler }
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
        let chain = currentChain
        let sink = ResultSink<P>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                sink.install(continuation)
                chain.run(from: 0, packet, sink: sink)
            }
        } onCancel: {
            sink.cancel()
        }
    }

    // MARK: Inspecting

    /// The stages in order.
    public var stages: [StageInfo] {
        state.withLock { $0.infos }
    }

    /// How many ports are wired.
    public var portCount: Int {
        state.withLock { $0.ports.count }
    }

    /// Outcomes that had no handler set when they happened (and no ``process(_:portNumber:)`` caller waiting).
    public var unhandled: UnhandledOutcomes {
        state.withLock { $0.unhandled }
    }

    // MARK: Internals

    /// Entry point for ports: runs the packet through the current chain on this thread.
    @inlinable
    func start(_ packet: P) {
        currentChain.run(from: 0, packet, sink: nil)
    }

    @usableFromInline
    var currentChain: Chain<P> {
        state.withLock { $0.chain }.unsafelyUnwrapped
    }

    private func append(_ stage: AnyStage<P>) -> Plumber<P> {
        // The name is user code: ask for it outside the lock.
        let name = stage.name
        return configure { state in
            state.infos.append(StageInfo(index: state.stages.count, name: name))
            state.stages.append(stage)
        }
    }

    private func configure(_ change: (inout State) -> Void) -> Plumber<P> {
        state.withLock(change)
        rebuildChain()
        return self
    }

    private func rebuildChain() {
        state.withLock { state in
            state.chain = Chain(stages: state.stages, infos: state.infos, onOutput: state.onOutput,
                                onBlocked: state.onBlocked, onFailure: state.onFailure, plumber: self)
        }
    }

    func countUnhandled(_ outcome: WritableKeyPath<UnhandledOutcomes, Int>) {
        state.withLock { $0.unhandled[keyPath: outcome] += 1 }
    }

    func startAsync(_ stage: any AsyncPipelineStage<P>, at index: Int, _ packet: P, chain: Chain<P>,
                    sink: ResultSink<P>?) {
        let id = state.withLock { state -> UInt64 in
            state.nextTaskID &+= 1
            return state.nextTaskID
        }
        let task = Task {
            let outcome: Result<P?, any Error>
            do {
                outcome = .success(try await stage.process(packet))
            } catch {
                outcome = .failure(error)
            }
            // A plumber freed meanwhile drops the packet without a report (documented).
            guard let plumber = chain.plumber else { return }
            plumber.taskFinished(id)
            switch outcome {
            case .success(let passed?):
                chain.run(from: index + 1, passed, sink: sink)
            case .success(nil):
                chain.reportBlocked(packet, at: index, plumber: plumber, sink: sink)
            case .failure(let error):
                chain.reportFailure(packet, at: index, error: error, plumber: plumber, sink: sink)
            }
        }
        state.withLock { state in
            if state.finishedEarly.remove(id) == nil { state.tasks[id] = task }
        }
        sink?.add(task)
    }

    private func taskFinished(_ id: UInt64) {
        state.withLock { state in
            if state.tasks.removeValue(forKey: id) == nil { state.finishedEarly.insert(id) }
        }
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
