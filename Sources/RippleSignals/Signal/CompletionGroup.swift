import RippleCore

/// Subscriptions that complete the downstream together (merge, flattenMap): the downstream completes when the last
/// one leaves. Member ``sourceID`` is registered from the start; ``enter()`` adds more.
///
/// Members live in reusable slots (an id is a slot index) rather than hashed sets: flattenMap enters and leaves once
/// per inner signal, and hashing dominated its per-value cost. A slot is reused only after its member left, and
/// every `enter` is followed by that member's `store` before the next `enter` (both run in one serial callback),
/// so a late `store` never lands on another member's slot. `@unchecked Sendable`: the mutable state is guarded by
/// `lock`.
final class CompletionGroup<Output: Sendable, Failure: Error>: @unchecked Sendable {
    static var sourceID: Int { 0 }

    private let downstream: Subscriber<Output, Failure>
    private let lock = RawLock()
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var slots: [CompletionSlot] = [.active(nil)]
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var activeCount = 1
    @exclusivity(unchecked) private var disposed = false

    init(downstream: Subscriber<Output, Failure>) {
        self.downstream = downstream
    }

    /// Registers one more member; nil once the group was disposed.
    func enter() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !disposed else { return nil }
        activeCount += 1
        if let id = freeSlots.popLast() {
            slots[id] = .active(nil)
            return id
        }
        slots.append(.active(nil))
        return slots.count - 1
    }

    /// Keeps `disposer` for member `id` while it is active; disposes it at once if the group was disposed.
    func store(_ disposer: Disposer, for id: Int) {
        lock.lock()
        if disposed {
            lock.unlock()
            disposer.dispose()
            return
        }
        if case .active = slots[id] {
            slots[id] = .active(disposer)
        }
        lock.unlock()
    }

    func leave(_ id: Int) {
        lock.lock()
        // After `disposeAll` the slots are gone and nothing may complete the downstream.
        guard !disposed, case .active = slots[id] else {
            lock.unlock()
            return
        }
        slots[id] = .free
        freeSlots.append(id)
        activeCount -= 1
        let done = activeCount == 0 && !disposed
        lock.unlock()
        if done { downstream.sendComplete() }
    }

    func disposeAll() {
        lock.lock()
        disposed = true
        var taken: [Disposer] = []
        for slot in slots {
            if case .active(let disposer?) = slot { taken.append(disposer) }
        }
        slots = []
        freeSlots = []
        lock.unlock()
        for disposer in taken { disposer.dispose() }
    }
}

/// A member slot of ``CompletionGroup``. Not nested in the generic class: a nested enum would be generic too, and
/// every use would look its metadata up at run time.
private enum CompletionSlot {
    case free
    /// Entered; the disposer once stored (nil while its subscription is being made).
    case active(Disposer?)
}
