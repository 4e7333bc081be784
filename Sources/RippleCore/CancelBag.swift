/// Holds cancellables and cancels all of them when it is cancelled or freed.
///
/// Entries that were cancelled elsewhere are pruned as the bag grows, so a long-lived bag that sees many short-lived
/// subscriptions stays small. Once the bag is cancelled, anything inserted later is cancelled at once.
public final class CancelBag: CancelToken, ListenerOwner, @unchecked Sendable {
    // Guarded by `lock`.
    private struct State {
        var entries: [any CancelToken] = []
        var isCancelled = false
        var isPruning = false
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
            defer { state.entries = [] }
            return state.entries
        }
        guard let toPrune else {
            cancellable.cancel()
            return
        }
        if !toPrune.isEmpty { prune(toPrune) }
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
        let kept = taken.filter { !$0.isCancelled }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            state.isPruning = false
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
