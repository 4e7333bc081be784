import DequeModule
import RippleCore

/// Guards every chain's topology, every pipe's registrations and every pipe's chain pointer.
///
/// One lock for the whole graph keeps merges of two chains free of lock-ordering problems; it is held only to edit
/// those tables or to build and publish a chain's plan, never while an action runs. Calls do not take it: they
/// borrow the published plan (see ``PipeCore``).
let pipeGraphLock = Lock()

let livePipes = LiveObjectCounter("ActionPipe")
let liveChains = LiveObjectCounter("ActionPipeChain")

/// The ordered pipes of one chain, shared by every pipe in it.
///
/// The chain owns the pipes' registrations (`cores`); pipes own their chain. When a chain is appended to another,
/// it keeps a strong `forward` pointer to the chain it merged into and every pipe still pointing at it follows that
/// pointer on its next use. No weak references are involved: a weakly referenced object pays for a side table on
/// every retain and release, which a call would hit several times.
///
/// `@unchecked Sendable`: every property is only touched under `pipeGraphLock`.
final class PipeChain: @unchecked Sendable {
    /// A deque: a merge adds the shorter chain's cores at whichever end of the longer one they go (see
    /// `ActionPipe.addPipe`).
    @exclusivity(unchecked) var cores: Deque<PipeCore>
    /// The chain this one merged into; its `cores` are empty from then on.
    @exclusivity(unchecked) var forward: PipeChain?
    /// What a call runs, built on the first call after a change and published by every pipe of the chain.
    @exclusivity(unchecked) private var plan: CallPlan?
    /// The pipes of this chain that published a plan since the last change: the only ones `invalidate` has to take
    /// down. Walking every core instead made each edit cost the chain's length, so building a chain of n pipes (or
    /// registering an action on each) cost n² (2,000 pipes took seconds; 100,000 never finished).
    @exclusivity(unchecked) private var publishers: [PipeCore] = []

    init(core: PipeCore) {
        cores = [core]
        liveChains.increment()
    }

    deinit {
        liveChains.decrement()
    }

    /// Call with `pipeGraphLock` held.
    func callPlan() -> CallPlan {
        if let plan {
            return plan
        }
        let built = CallPlan(cores: cores)
        plan = built
        return built
    }

    /// Publishes this chain's plan on `core`, one of its pipes' cores that has none published. Call with
    /// `pipeGraphLock` held.
    func publishPlan(on core: PipeCore) -> CallPlan {
        let built = callPlan()
        // Nothing was published, so nothing is replaced: no garbage to release.
        _ = core.plan.replace { built }
        publishers.append(core)
        return built
    }

    /// Call with `pipeGraphLock` held, after any change to the cores or their registrations; what lands in
    /// `garbage` is to be released after unlocking (releasing a plan may release actions and what they captured).
    func invalidate(into garbage: inout [AnyObject]) {
        if let plan {
            garbage.append(plan)
            self.plan = nil
        }
        // A core publishes only through `publishPlan(on:)` of its current chain, and every change to a chain's cores
        // invalidates it first (both chains of a merge), so these are all the cores with a plan published.
        for core in publishers {
            core.unpublish(into: &garbage)
        }
        publishers = []
    }
}

/// Runs `body` under `pipeGraphLock`, then releases what it put in the garbage, outside the lock: the last
/// reference to an action may be the only thing keeping user objects alive, and their deinit must not run under
/// the lock.
func editGraph<Value>(_ body: (inout [AnyObject]) -> Value) -> Value {
    var garbage: [AnyObject] = []
    let value = pipeGraphLock.withLock { body(&garbage) }
    withExtendedLifetime(garbage) {}
    return value
}
