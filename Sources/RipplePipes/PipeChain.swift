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

/// The ordered pipes of one chain, shared by every pipe in it.
///
/// The chain owns the pipes' registrations (`cores`); pipes own their chain. When a chain is appended to another,
/// it keeps a strong `forward` pointer to the chain it merged into and every pipe still pointing at it follows that
/// pointer on its next use. No weak references are involved: a weakly referenced object pays for a side table on
/// every retain and release, which a call would hit several times.
///
/// `@unchecked Sendable`: every property is only touched under `pipeGraphLock`.
final class PipeChain: @unchecked Sendable {
    @exclusivity(unchecked) var cores: [PipeCore]
    /// The chain this one merged into; its `cores` are empty from then on.
    @exclusivity(unchecked) var forward: PipeChain?
    /// Every slot's registrations in chain order (indexed by slot), built on the first call after a change.
    @exclusivity(unchecked) private var plan: ContiguousArray<ContiguousArray<AnyObject>?>?

    init(core: PipeCore) {
        cores = [core]
        liveChains.increment()
    }

    deinit {
        liveChains.decrement()
    }

    /// Call with `pipeGraphLock` held.
    func registrations(for slot: Int) -> ContiguousArray<AnyObject>? {
        if let plan {
            return slot < plan.count ? plan[slot] : nil
        }
        var built = ContiguousArray<ContiguousArray<AnyObject>?>()
        for core in cores {
            for (slot, registrations) in core.registrations {
                if slot >= built.count {
                    built.append(contentsOf: repeatElement(nil, count: slot + 1 - built.count))
                }
                built[slot] = (built[slot] ?? []) + registrations
            }
        }
        plan = built
        return slot < built.count ? built[slot] : nil
    }

    /// Call with `pipeGraphLock` held, after any change to the cores or their registrations.
    func invalidate() {
        plan = nil
    }
}
