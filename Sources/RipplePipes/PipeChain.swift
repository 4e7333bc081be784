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

/// One pipe's place in a chain: the chain lists links, and the pipe keeps its own, so that leaving the chain empties
/// the link (``PipeChain/remove(_:)``) instead of searching the chain for the pipe.
///
/// Invariants: a link is in exactly one chain's `links` (a merge moves links, never copies them), and `core` is set
/// while its pipe is in that chain; once the pipe leaves, `core` is nil for good (the pipe takes a new link), so an
/// emptied link holds no actions alive while it waits for the chain's next compaction.
///
/// `@unchecked Sendable`: `core` is only touched under `pipeGraphLock`.
final class ChainLink: @unchecked Sendable {
    @exclusivity(unchecked) var core: PipeCore?

    init(core: PipeCore) {
        self.core = core
    }
}

/// The ordered pipes of one chain, shared by every pipe in it.
///
/// The chain owns the pipes' registrations (through its links' cores); pipes own their chain. When a chain is
/// appended to another, it keeps a strong `forward` pointer to the chain it merged into and every pipe still pointing
/// at it follows that pointer on its next use. No weak references are involved: a weakly referenced object pays for
/// a side table on every retain and release, which a call would hit several times.
///
/// Invariants: `emptyLinks` counts the links of `links` whose pipe left; they are squeezed out once they are more
/// than half of `links`, so a removal costs O(1) amortised. Why: a removal used to search the chain for its pipe
/// (`removeAll { $0 === core }`), so taking every pipe out of a chain of n, one by one, cost n² (8,000 pipes: 32
/// million comparisons).
///
/// `@unchecked Sendable`: every property is only touched under `pipeGraphLock`.
final class PipeChain: @unchecked Sendable {
    /// A deque: a merge adds the shorter chain's links at whichever end of the longer one they go (see
    /// `ActionPipe.addPipe`).
    @exclusivity(unchecked) private(set) var links: Deque<ChainLink>
    /// How many of `links` are empty.
    @exclusivity(unchecked) private var emptyLinks = 0
    /// Links visited by compactions, for the tests that check a removal's cost (a count, not a timing).
    @exclusivity(unchecked) private(set) var compactedLinks = 0
    /// Uses of `cores` (each may visit every link), for the tests that check what asking the chain costs (a count,
    /// not a timing).
    @exclusivity(unchecked) private(set) var coreWalks = 0
    /// The chain this one merged into; its `links` are empty from then on.
    @exclusivity(unchecked) var forward: PipeChain?
    /// What a call runs, built on the first call after a change and published by every pipe of the chain.
    @exclusivity(unchecked) private var plan: CallPlan?
    /// The pipes of this chain that published a plan since the last change: the only ones `invalidate` has to take
    /// down. Walking every core instead made each edit cost the chain's length, so building a chain of n pipes (or
    /// registering an action on each) cost n² (2,000 pipes took seconds; 100,000 never finished).
    @exclusivity(unchecked) private var publishers: [PipeCore] = []

    init(link: ChainLink) {
        links = [link]
        liveChains.increment()
    }

    deinit {
        liveChains.decrement()
    }

    /// The number of pipes in the chain.
    var count: Int {
        links.count - emptyLinks
    }

    /// The cores of the chain's pipes, in chain order. Each use may walk the whole chain, so it is counted.
    var cores: some Sequence<PipeCore> {
        coreWalks += 1
        return links.lazy.compactMap(\.core)
    }

    /// Moves `other`'s links after this chain's; `other` is left empty.
    func append(linksOf other: PipeChain) {
        links.append(contentsOf: other.links)
        emptyLinks += other.emptyLinks
        other.links = []
        other.emptyLinks = 0
    }

    /// Moves `other`'s links before this chain's; `other` is left empty.
    func prepend(linksOf other: PipeChain) {
        links.prepend(contentsOf: other.links)
        emptyLinks += other.emptyLinks
        other.links = []
        other.emptyLinks = 0
    }

    /// Takes `link`'s pipe out of this chain, which holds `link`.
    func remove(_ link: ChainLink) {
        link.core = nil
        emptyLinks += 1
        if emptyLinks > links.count / 2 {
            compactedLinks += links.count
            links.removeAll { $0.core == nil }
            emptyLinks = 0
        }
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
