import DequeModule
import RippleCore
import Synchronization

// A domain: the unit of isolation of the engine. Every connected graph has one; a transaction holds its domain's lock
// from its first store to its commit, so two transactions of one graph never interleave.
//
// Invariants:
// - A node belongs to exactly one *root* domain: follow `parent` from the node's hint until a domain without one.
//   `parent` is written once, when the domain is merged into another, under both domains' locks, and never cleared:
//   domains merge, never split (an over-large domain is only less parallel, never wrong).
// - `parent`, `deliveries` and `batchesInFlight` are read and written only under the domain's own lock. Only a root's
//   `deliveries` and `batchesInFlight` are used; a merge moves the child's into the root.
// - A thread waits (blocks) for a domain's lock only while it holds no other domain's lock, except in
//   ``lockMerged(_:_:)``, which takes both roots in address order. A thread that holds a domain and needs another
//   (a transform that links into a second graph) only *tries* the other lock; when that fails, the work becomes a
//   later transaction. So no cycle of waits can form: deadlock-free (see the Propagation article's picture).
// - `deliveries` holds the listener calls of committed transactions, in commit order. A thread takes them out only
//   when no batch taken earlier is still running (`batchesInFlight == 0`), and runs them outside every lock, so the
//   listener calls of successive transactions never overlap or reorder. Merging two graphs whose calls two threads
//   are running adds up their batches: calls queued after the merge wait for both.

/// The lock, delivery queue and union-find link of one connected graph.
@usableFromInline
final class Domain: @unchecked Sendable {
    /// RippleCore's one lock primitive (see RawLock.swift).
    private let mutex = RawLock()
    /// The domain this one was merged into; nil for a root. Guarded by this domain's lock.
    @exclusivity(unchecked) private(set) var parent: Domain?
    /// Listener calls of committed transactions, oldest first. Guarded by the lock; only a root's is used.
    @usableFromInline @exclusivity(unchecked) var deliveries = Deque<() -> Void>()
    /// How many taken-out batches of `deliveries` threads are still running: 0 or 1, more after a merge of graphs
    /// that were both being drained. Guarded by the lock; only a root's is used.
    @exclusivity(unchecked) var batchesInFlight = 0
    #if RIPPLE_INTERNAL_CHECKS
    /// Whether the lock is held: checked where the engine relies on holding it.
    let held = Atomic<Bool>(false)
    #endif

    @usableFromInline
    init() {}

    @usableFromInline
    func lock() {
        mutex.lock()
        #if RIPPLE_INTERNAL_CHECKS
        held.store(true, ordering: .relaxed)
        #endif
    }

    func tryLock() -> Bool {
        let taken = mutex.tryLock()
        #if RIPPLE_INTERNAL_CHECKS
        if taken { held.store(true, ordering: .relaxed) }
        #endif
        return taken
    }

    @usableFromInline
    func unlock() {
        #if RIPPLE_INTERNAL_CHECKS
        held.store(false, ordering: .relaxed)
        #endif
        mutex.unlock()
    }

    /// Makes this root (locked, as is `root`) a child of `root`, moving its pending listener calls after `root`'s,
    /// and its batches in flight to `root`'s count.
    func merge(into root: Domain) {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(parent == nil && root.parent == nil && held.load(ordering: .relaxed)
                     && root.held.load(ordering: .relaxed), "Domain.merge: both domains must be locked roots")
        #endif
        parent = root
        if !deliveries.isEmpty {
            root.deliveries.append(contentsOf: deliveries)
            deliveries.removeAll()
        }
        root.batchesInFlight += batchesInFlight
        batchesInFlight = 0
    }

    /// Takes every queued call out as a batch in flight, leaving the queue empty. Call under the lock, with no batch
    /// in flight.
    func takeDeliveries() -> Deque<() -> Void> {
        var taken = Deque<() -> Void>()
        swap(&taken, &deliveries)
        batchesInFlight = 1
        return taken
    }

    /// Locks this domain and returns true when it is a root; otherwise unlocks it and returns false (then find the
    /// root with ``lockRoot(from:)``). Every path that locks a graph starts here: usually nothing merged since the
    /// domain was found, and the caller keeps using its own reference, where `lockRoot` returns one retained.
    func lockIfRoot() -> Bool {
        lock()
        if parent == nil { return true }
        unlock()
        return false
    }

    /// The root of `start`'s tree, locked. Call holding no domain lock (it waits).
    static func lockRoot(from start: Domain) -> Domain {
        // Usually `start` is the root (no merge since it was found): no loop variable to retain (SubjectPumping
        // 1,351 → 1,231 instructions a set, through the drain's re-lock).
        start.lock()
        guard var domain = start.parent else { return start }
        start.unlock()
        while true {
            domain.lock()
            guard let next = domain.parent else { return domain }
            domain.unlock()
            domain = next
        }
    }
}

/// What the engine needs of a node to find its domain, without its value type.
@usableFromInline
protocol DomainMember: AnyObject {
    /// The node's domain, or one it was merged into (created on first use).
    func domainHint() -> Domain
    /// Points the node straight at `root` (path compression).
    func setDomainHint(_ root: Domain)
    /// Puts a node that has no domain yet (a new operator's node) in `root`, which the caller holds; false when it
    /// has one.
    func adoptDomainIfFresh(_ root: Domain) -> Bool
}

/// Locks the root domain of `node`. Call holding no domain lock.
func lockDomain(of node: some DomainMember) -> Domain {
    let hint = node.domainHint()
    // Usually the root (see `Node.lockOwnDomain()`).
    if hint.lockIfRoot() { return hint }
    let root = Domain.lockRoot(from: hint)
    node.setDomainHint(root)
    return root
}

/// Merges the domains of `a` and `b` (one graph from now on) and returns the root, locked. Call holding no domain
/// lock: both roots are taken in address order, and re-checked, since another merge may have happened between
/// finding a root and locking it.
func lockMerged(_ a: any DomainMember, _ b: any DomainMember) -> Domain {
    while true {
        let rootA = lockDomain(of: a)
        if b.adoptDomainIfFresh(rootA) || rootA === b.domainHint() { return rootA }
        rootA.unlock()
        let rootB = lockDomain(of: b)
        rootB.unlock()
        if rootA === rootB {
            let root = Domain.lockRoot(from: rootA)
            if root === rootA { return root }
            root.unlock()
            continue
        }
        let (first, second) = ObjectIdentifier(rootA) < ObjectIdentifier(rootB) ? (rootA, rootB) : (rootB, rootA)
        first.lock()
        second.lock()
        guard first.parent == nil, second.parent == nil else {
            second.unlock()
            first.unlock()
            continue
        }
        second.merge(into: first)
        second.unlock()
        a.setDomainHint(first)
        b.setDomainHint(first)
        return first
    }
}

/// Brings `node` into `held` (locked by this thread) without waiting: true when it already was, or when its root
/// could be locked at once and merged in; false when another thread holds it (the caller then defers its work).
func tryJoin(_ node: some DomainMember, into held: Domain) -> Bool {
    if node.adoptDomainIfFresh(held) { return true }
    var domain = node.domainHint()
    while true {
        if domain === held { return true }
        guard domain.tryLock() else { return false }
        if let next = domain.parent {
            domain.unlock()
            domain = next
            continue
        }
        domain.merge(into: held)
        domain.unlock()
        node.setDomainHint(held)
        return true
    }
}

extension Node: DomainMember {
    @usableFromInline
    final func domainHint() -> Domain {
        lock.lock()
        if domainStorage == nil { domainStorage = Domain() }
        let domain = domainStorage.unsafelyUnwrapped
        lock.unlock()
        return domain
    }

    @usableFromInline
    final func setDomainHint(_ root: Domain) {
        lock.lock()
        // Released after unlocking: it may be the last reference to a merged-away domain.
        let previous = domainStorage
        domainStorage = root
        lock.unlock()
        extendLifetime(previous)
    }

    @usableFromInline
    final func adoptDomainIfFresh(_ root: Domain) -> Bool {
        lock.lock()
        let fresh = domainStorage == nil
        if fresh { domainStorage = root }
        lock.unlock()
        return fresh
    }

    /// Locks this node's root domain. Call holding no domain.
    @usableFromInline
    final func lockOwnDomain() -> Domain {
        // `lockDomain(of:)` without the generic call (unspecialised, it looked `Node<Value>`'s conformance up on
        // every set).
        let hint = domainHint()
        // The common case first: the hint is the root (no merge since the node last looked). Locked in place, the
        // hint is not retained again to be returned (SubjectPumping 1,460 → 1,351 instructions a set).
        if hint.lockIfRoot() { return hint }
        let root = Domain.lockRoot(from: hint)
        setDomainHint(root)
        return root
    }
}

extension Node {
    /// ``tryJoin(_:into:)`` for code inlined into clients.
    @usableFromInline
    final func joinDomainIfFree(_ held: Domain) -> Bool {
        tryJoin(self, into: held)
    }
}
