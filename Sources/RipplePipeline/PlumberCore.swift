import RippleCore

/// A plumber's state, shared with its ports and in-flight chains.
///
/// Ports and chains hold the core strongly instead of holding the ``Plumber`` weakly: retaining a weakly referenced
/// object goes through its side table, which cost more per packet than the stages themselves. The plumber owns the
/// core and shuts it down when freed (and then reroutes its ports, which stop delivering); late continuations and
/// asynchronous stages see the core is dead and drop their packet without a report.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its `Locked` lock.
@usableFromInline
final class PlumberCore<P: Packet>: @unchecked Sendable {
    private struct State {
        /// Appended to in place (see ``StageStore``); every chain snapshot shares it.
        var stages = StageStore<P>.make(capacity: 4)
        var onOutput: (@Sendable (P) -> Void)?
        var onBlocked: (@Sendable (P, StageInfo) -> Void)?
        var onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?
        var isAlive = true
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var finishedEarly: Set<UInt64> = []
        var nextTaskID: UInt64 = 0
        var unhandled = UnhandledOutcomes()
    }

    private let state = Locked(State())
    /// The current `Chain<P>`; nil once the plumber is gone (the core ↔ chain cycle is broken then). Written under
    /// `state`'s lock so snapshots are stored in order.
    @usableFromInline let chainSlot = ObjectSlot()

    init() {
        rebuild()
    }

    /// The chain a new packet runs through, or nil when the plumber is gone.
    @inlinable
    var currentChain: Chain<P>? {
        // Exact type: `rebuild()` is the slot's only writer and stores `Chain<P>`s (a final class) or nil.
        chainSlot.load().map {
            #if RIPPLE_INTERNAL_CHECKS
            precondition(type(of: $0) == Chain<P>.self, "RipplePipeline: a foreign chain in PlumberCore<\(P.self)>")
            #endif
            return unsafeDowncast($0, to: Chain<P>.self)
        }
    }

    var isAlive: Bool {
        state.withLock { $0.isAlive }
    }

    var infos: [StageInfo] {
        state.withLock { $0.stages.list }.infos
    }

    var unhandled: UnhandledOutcomes {
        state.withLock { $0.unhandled }
    }

    /// `stage` asked its stage's name (user code) when it was made, outside the lock.
    @usableFromInline
    func append(_ stage: StageRunner<P>) {
        let name = stage.name
        configure { state in
            state.stages = state.stages.appending(stage, name: name)
        }
    }

    /// ``append(_:)`` for several stages, with one new snapshot.
    func append(contentsOf stages: [StageRunner<P>]) {
        let names = stages.map(\.name)
        configure { state in
            for (stage, name) in zip(stages, names) {
                state.stages = state.stages.appending(stage, name: name)
            }
        }
    }

    func setOutput(_ handler: @escaping @Sendable (P) -> Void) {
        configure { $0.onOutput = handler }
    }

    func setBlocked(_ handler: @escaping @Sendable (P, StageInfo) -> Void) {
        configure { $0.onBlocked = handler }
    }

    func setFailure(_ handler: @escaping @Sendable (P, StageInfo, any Error) -> Void) {
        configure { $0.onFailure = handler }
    }

    private func configure(_ change: (inout State) -> Void) {
        // The replaced handler is released after the lock (`rebuild` says why).
        let before = state.withLock { state -> State in
            let before = state
            change(&state)
            return before
        }
        withExtendedLifetime(before) {}
        rebuild()
    }

    /// What the plumber lets go of here — the old chain, and with it a replaced handler and what it captured — may
    /// have a deinit that uses this plumber, and `state`'s lock is not re-entrant: it is released after the lock (a
    /// deinit under it hung; PlumberReleaseOutsideLockTests).
    private func rebuild() {
        let replaced = state.withLock { state -> AnyObject? in
            guard state.isAlive else { return nil }
            return chainSlot.exchange(Chain(stages: state.stages.list, onOutput: state.onOutput,
                                            onBlocked: state.onBlocked, onFailure: state.onFailure, core: self))
        }
        withExtendedLifetime(replaced) {}
    }

    /// The plumber is being freed: stop delivering, cancel the asynchronous stages in flight, and let go of the
    /// stages and handlers. The core itself may live on in the ports it was wired to (until their next route build
    /// prunes it), and so did they, and all they captured, as long as a port lived; packets in flight hold their
    /// chain's own references.
    func shutDown() {
        let (before, replaced) = state.withLock { state -> (State, AnyObject?) in
            let before = state
            state = State()
            state.isAlive = false
            return (before, chainSlot.exchange(nil))
        }
        // Released after the lock, as in `rebuild`: the stages, the handlers and the replaced chain.
        withExtendedLifetime(replaced) {}
        for task in before.tasks.values { task.cancel() }
        withExtendedLifetime(before) {}
    }

    func countUnhandled(_ outcome: WritableKeyPath<UnhandledOutcomes, Int>) {
        state.withLock { $0.unhandled[keyPath: outcome] += 1 }
    }

    func startAsync(_ stage: StageRunner<P>, at index: Int, _ packet: P, chain: Chain<P>,
                    sink: ResultSink<P>?) {
        let id = state.withLock { state -> UInt64? in
            guard state.isAlive else { return nil }
            state.nextTaskID &+= 1
            return state.nextTaskID
        }
        // A plumber freed meanwhile drops the packet without a report (documented).
        guard let id else { return }
        let task = Task {
            let outcome: Result<P?, any Error>
            do {
                outcome = .success(try await stage.process(packet))
            } catch {
                outcome = .failure(error)
            }
            guard self.taskFinished(id) else { return }
            switch outcome {
            case .success(let passed?):
                chain.run(from: index + 1, passed, sink: sink.map { Borrowed($0) })
            case .success(nil):
                chain.reportBlocked(packet, at: index, sink: sink.map { Borrowed($0) })
            case .failure(let error):
                chain.reportFailure(packet, at: index, error: error, sink: sink.map { Borrowed($0) })
            }
        }
        let cancelNow = state.withLock { state -> Bool in
            guard state.isAlive else { return true }
            if state.finishedEarly.remove(id) == nil { state.tasks[id] = task }
            return false
        }
        if cancelNow { task.cancel() }
        sink?.add(task)
    }

    /// Forgets a finished task; returns whether the plumber is still alive to hear its outcome.
    private func taskFinished(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard state.isAlive else { return false }
            if state.tasks.removeValue(forKey: id) == nil { state.finishedEarly.insert(id) }
            return true
        }
    }
}
