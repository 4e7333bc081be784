import RippleCore

/// Subscriptions that complete the downstream together (merge, flatMap): the downstream completes when the last
/// one leaves. Member ``sourceID`` is registered from the start; ``enter()`` adds more.
///
/// Members live in reusable slots (an id is a slot index) rather than hashed sets: flatMap enters and leaves once
/// per inner signal, and hashing dominated its per-value cost. The source member has a slot of its own outside the
/// array, so a group whose inner signals never need one (flatMap over `just`) allocates no array. A slot is reused only after its member left, and
/// every `enter` is followed by that member's `store` before the next `enter` (both run in one serial callback),
/// so a late `store` never lands on another member's slot.
///
/// The group is the disposer its operator's action returns (no wrapper object); flatMap's per-subscription state
/// is a subclass, so one object serves as group, disposer and callback target. `@unchecked Sendable`: the mutable
/// state is guarded by `lock`.
///
/// Ownership: the group is the downstream's cleanup, so it does not own ``downstream`` (that would be a cycle that
/// keeps the chain alive once every producer lets go unended; see `CombiningState`). Every member's value callback
/// owns the downstream instead.
@usableFromInline
class CompletionGroup<Output: Sendable, Failure: Error>: Disposer, @unchecked Sendable {
    @inlinable static var sourceID: Int { 0 }

    /// Not owned (see the type's comment). Only reached from a member's callbacks, while that member's subscriber,
    /// and so the downstream its value callback owns, is alive. Unmanaged for the reasons given in `CombiningState`.
    @usableFromInline let unownedDownstream: UnownedSubscriber<Output, Failure>
    @inlinable final var downstream: SignalSubscriber<Output, Failure> { unownedDownstream.subscriber }

    private let lock = RawLock()
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    /// The source member: active until it leaves, and its disposer once stored. Two plain fields rather than a
    /// `CompletionSlot`: copying that enum in and out retained and released its payload (callgrind,
    /// FlatMapsCreating: ~40 instructions per level, on the path of every flatMap over `just`).
    @exclusivity(unchecked) private var sourceActive = true
    @exclusivity(unchecked) private var sourceDisposer: Disposer?
    /// Member `id` (other than the source) lives at `slots[id - 1]`.
    @exclusivity(unchecked) private var slots: [CompletionSlot] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var activeCount = 1
    @exclusivity(unchecked) private var disposed = false

    /// Borrowed, as it is kept unowned: passed owned to this out-of-line init, it cost a retain and a release per
    /// subscription (callgrind, FlatMapsCreating, with `storeSource` consuming its disposer: 12,917 → 12,443).
    @usableFromInline
    init(downstream: borrowing SignalSubscriber<Output, Failure>) {
        unownedDownstream = UnownedSubscriber(downstream)
        super.init()
    }

    /// Registers one more member; nil once the group was disposed.
    @usableFromInline
    final func enter() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !disposed else { return nil }
        activeCount += 1
        if let id = freeSlots.popLast() {
            slots[id - 1] = .active(nil)
            return id
        }
        slots.append(.active(nil))
        return slots.count
    }

    /// Keeps `disposer` for member `id` while it is active; disposes it at once if the group was disposed.
    @usableFromInline
    final func store(_ disposer: Disposer, for id: Int) {
        if id == Self.sourceID { return storeSource(disposer) }
        lock.lock()
        if disposed {
            lock.unlock()
            disposer.dispose()
            return
        }
        if case .active = slots[id - 1] {
            slots[id - 1] = .active(disposer)
        }
        lock.unlock()
    }

    /// `store(_:for:)` for the source member. Consuming: the disposer its caller just got moves into the field.
    @usableFromInline
    final func storeSource(_ disposer: consuming Disposer) {
        lock.lock()
        if disposed {
            lock.unlock()
            disposer.dispose()
            return
        }
        if sourceActive {
            sourceDisposer = disposer
        }
        lock.unlock()
    }

    @usableFromInline
    final func leave(_ id: Int) {
        if id == Self.sourceID { return leaveSource() }
        lock.lock()
        // After `dispose` the slots are gone and nothing may complete the downstream.
        guard !disposed, case .active = slots[id - 1] else {
            lock.unlock()
            return
        }
        slots[id - 1] = .free
        freeSlots.append(id)
        left()
    }

    /// The source member completed.
    @usableFromInline
    final func leaveSource() {
        lock.lock()
        guard !disposed, sourceActive else {
            lock.unlock()
            return
        }
        sourceActive = false
        sourceDisposer = nil
        left()
    }

    /// A member left: called with `lock` held; releases it, and completes the downstream if it was the last.
    private func left() {
        activeCount -= 1
        let done = activeCount == 0
        lock.unlock()
        if done { unownedDownstream.with { $0.sendComplete() } }
    }

    /// Only disposal ends a group.
    override final var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed
    }

    override final func dispose() {
        lock.lock()
        disposed = true
        // Moved out rather than copied into a new array of disposers: disposing allocates nothing.
        let source = sourceDisposer
        let members = slots
        sourceActive = false
        sourceDisposer = nil
        slots = []
        freeSlots = []
        lock.unlock()
        source?.dispose()
        for slot in members {
            if case .active(let disposer?) = slot { disposer.dispose() }
        }
    }
}

/// A member slot of ``CompletionGroup``. Not nested in the generic class: a nested enum would be generic too, and
/// every use would look its metadata up at run time.
private enum CompletionSlot {
    case free
    /// Entered; the disposer once stored (nil while its subscription is being made).
    case active(Disposer?)
}
