import RippleCore

/// Subscriptions that complete the downstream together (merge): the downstream completes when the last one leaves.
/// Member `MemberSlots.sourceID` is registered from the start; ``enter()`` adds more.
///
/// The group is the disposer its operator's action returns (no wrapper object). `@unchecked Sendable`: the mutable
/// state is guarded by `lock`.
///
/// Ownership: the group is the downstream's cleanup, so it does not own ``downstream`` (that would be a cycle that
/// keeps the chain alive once every producer lets go unended; see `CombiningState`). Every member's value callback
/// owns the downstream instead.
@usableFromInline
final class CompletionGroup<Output: Sendable, Failure: Error>: Disposer, @unchecked Sendable {
    /// Not owned (see the type's comment). Only reached from a member's callbacks, while that member's subscriber,
    /// and so the downstream its value callback owns, is alive. Unmanaged for the reasons given in `CombiningState`.
    @usableFromInline let unownedDownstream: UnownedSubscriber<Output, Failure>

    private let lock = RawLock()
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var members = MemberSlots()
    @exclusivity(unchecked) private var disposed = false

    init(downstream: borrowing SignalSubscriber<Output, Failure>) {
        unownedDownstream = UnownedSubscriber(downstream)
        super.init()
    }

    /// Registers one more member; nil once the group was disposed.
    func enter() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !disposed else { return nil }
        return members.enter()
    }

    /// Keeps `disposer` for member `id` while it is active; disposes it at once if the group was disposed.
    func store(_ disposer: consuming Disposer, for id: Int) {
        lock.lock()
        if disposed {
            lock.unlock()
            disposer.dispose()
            return
        }
        members.store(disposer, for: id)
        lock.unlock()
    }

    /// Member `id` completed: the downstream completes if it was the last.
    func leave(_ id: Int) {
        lock.lock()
        // After `dispose` the slots are gone and nothing may complete the downstream.
        guard !disposed, members.leave(id) else {
            lock.unlock()
            return
        }
        let done = members.allLeft
        lock.unlock()
        if done { unownedDownstream.with { $0.sendComplete() } }
    }

    /// Only disposal ends a group.
    override var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed
    }

    override func dispose() {
        lock.lock()
        disposed = true
        let taken = members.takeAll()
        lock.unlock()
        taken.source?.dispose()
        for slot in taken.members {
            slot.disposer?.dispose()
        }
    }
}
