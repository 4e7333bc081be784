import RippleCore

/// Guards every chain's topology, every pipe's registrations and every pipe's chain pointer.
///
/// One lock for the whole graph keeps merges of two chains free of lock-ordering problems; it is held only to edit
/// those tables or to read one chain's plan, never while an action runs.
let pipeGraphLock = Lock()

let livePipes = LiveObjectCounter("ActionPipe")
let liveChains = LiveObjectCounter("ActionPipeChain")

/// The registrations of one pipe, by key slot. A bundle may hold several registrations under one slot.
///
/// `@unchecked Sendable`: `registrations` is only touched under `pipeGraphLock`.
final class PipeCore: @unchecked Sendable {
    var registrations: [Int: ContiguousArray<AnyObject>] = [:]
}

/// A pipe handle that a chain re-points when it merges into another chain.
protocol ChainMember: AnyObject {
    /// Guarded by `pipeGraphLock`.
    var chain: PipeChain { get set }
}

struct WeakMember {
    weak var member: (any ChainMember)?
}

/// The ordered pipes of one chain, shared by every pipe in it.
///
/// The chain owns the pipes' registrations (`cores`) and only points weakly at the handles, so a handle → chain →
/// cores graph has no cycle: the chain and its cores live as long as any handle of the chain does.
///
/// `@unchecked Sendable`: every property is only touched under `pipeGraphLock`.
final class PipeChain: @unchecked Sendable {
    var cores: [PipeCore]
    var members: [WeakMember]
    /// Every slot's registrations in chain order, built on the first call after a change.
    private var plan: [Int: ContiguousArray<AnyObject>]?

    init(core: PipeCore) {
        cores = [core]
        members = []
        liveChains.increment()
    }

    deinit {
        liveChains.decrement()
    }

    /// Call with `pipeGraphLock` held.
    func registrations(for slot: Int) -> ContiguousArray<AnyObject>? {
        if let plan {
            return plan[slot]
        }
        var built: [Int: ContiguousArray<AnyObject>] = [:]
        for core in cores {
            for (slot, registrations) in core.registrations {
                built[slot, default: []].append(contentsOf: registrations)
            }
        }
        plan = built
        return built[slot]
    }

    /// Call with `pipeGraphLock` held, after any change to the cores or their registrations.
    func invalidate() {
        plan = nil
    }
}
