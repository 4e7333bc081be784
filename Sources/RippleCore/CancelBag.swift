/// Holds cancellables and cancels all of them when it is cancelled or freed.
///
/// Entries that were cancelled elsewhere are pruned as the bag grows, so a long-lived bag that sees many short-lived
/// subscriptions stays small. Once the bag is cancelled, anything inserted later is cancelled at once. `remove(_:)`
/// gives a token back uncancelled (EasyReact's `removeCancelable:`).
public final class CancelBag: CancelToken, ListenerOwner, @unchecked Sendable {
    // Guarded by `lock`.
    private struct State {
        var entries: [any CancelToken] = []
        var isCancelled = false
        var isPruning = false
        /// The entries a prune took out to filter, so `remove(_:)` finds them too; the ones it removes meanwhile
        /// are kept out when the prune puts the survivors back.
        var pruning: [any CancelToken] = []
        var removedWhilePruning: [ObjectIdentifier] = []
        var pruneThreshold = CancelBag.minimumPruneThreshold
    }

    private static let minimumPruneThreshold = 16
    private let state = Locked(State())

    public init() {}

    deinit {
        // Nobody else can reach the bag any more, so no lock contention; cancel outside any lock.
        let entries = state.withLock { state -> [any CancelToken] in
            defer { state.entries = [] }
            return state.entries
        }
        for entry in entries { entry.cancel() }
    }

    /// A bag is its own owner, so `node.listened(by: bag)` works.
    public var cancelBag: CancelBag { self }

    /// Number of entries held (cancelled entries may linger until the next prune).
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Adds `cancellable`; if the bag is already cancelled, cancels it immediately instead.
    public func insert(_ cancellable: any CancelToken) {
        let toPrune: [any CancelToken]? = state.withLock { state in
            if state.isCancelled { return nil }
            state.entries.append(cancellable)
            guard state.entries.count >= state.pruneThreshold, !state.isPruning else { return [] }
            state.isPruning = true
            state.pruning = state.entries
            defer { state.entries = [] }
            return state.entries
        }
        guard let toPrune else {
            cancellable.cancel()
            return
        }
        if !toPrune.isEmpty { prune(toPrune) }
    }

    /// Takes `cancellable` back out of the bag without cancelling it (EasyReact's `removeCancelable:`): the bag will
    /// not cancel it any more. Returns whether the bag held it. Entries are compared by identity, so a token of a
    /// value type (a struct) is never found; every token Ripple hands out is a class instance.
    @discardableResult
    public func remove(_ cancellable: any CancelToken) -> Bool {
        guard let wanted = identity(of: cancellable) else { return false }
        // The removed entry is released after unlocking: its deinit may be user code.
        let removed: (any CancelToken)? = state.withLock { state in
            if let index = state.entries.firstIndex(where: { identity(of: $0) == wanted }) {
                return state.entries.remove(at: index)
            }
            if state.isPruning, !state.removedWhilePruning.contains(wanted),
               let found = state.pruning.first(where: { identity(of: $0) == wanted }) {
                state.removedWhilePruning.append(wanted)
                return found
            }
            return nil
        }
        return removed != nil
    }

    /// Cancels every entry, once; later calls do nothing.
    public func cancel() {
        let entries = state.withLock { state -> [any CancelToken] in
            if state.isCancelled { return [] }
            state.isCancelled = true
            defer { state.entries = [] }
            return state.entries
        }
        for entry in entries { entry.cancel() }
    }

    // `isCancelled` of an entry may be user code, so it is asked outside the lock: the entries are taken out,
    // filtered, and put back in front of whatever was inserted meanwhile.
    private func prune(_ taken: [any CancelToken]) {
        var kept = taken.filter { !$0.isCancelled }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            state.isPruning = false
            state.pruning = []
            if !state.removedWhilePruning.isEmpty {
                let removed = state.removedWhilePruning
                kept.removeAll { entry in identity(of: entry).map(removed.contains) ?? false }
                state.removedWhilePruning = []
            }
            if state.isCancelled { return true }
            state.entries = kept + state.entries
            state.pruneThreshold = max(Self.minimumPruneThreshold, state.entries.count * 2)
            return false
        }
        if cancelledMeanwhile {
            for entry in kept { entry.cancel() }
        }
    }
}

/// A token's identity, when it is a class instance (a struct boxed as `AnyObject` gets a fresh box each time).
private func identity(of token: any CancelToken) -> ObjectIdentifier? {
    guard type(of: token) is AnyClass else { return nil }
    return ObjectIdentifier(token as AnyObject)
}
