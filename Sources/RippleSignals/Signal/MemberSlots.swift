// Invariants: member `sourceID` (0) is registered from the start, in two plain fields of its own; `enter()` adds
// more, each at `slots[id - 1]`. A slot is reused only after its member left, and every `enter` is followed by that
// member's `store` before the next `enter` (both run in one serial callback), so a late `store` never lands on
// another member's slot. Not synchronised: its owner keeps it under its lock.

/// The members of a group that completes together (merge, flatMap): the group is done when the last one leaves.
///
/// Members live in reusable slots (an id is a slot index) rather than hashed sets: flatMap enters and leaves once
/// per inner signal, and hashing dominated its per-value cost. The source member has fields of its own outside the
/// array, so a group whose inner signals never need one (flatMap over `just`) allocates no array; two plain fields
/// rather than a `CompletionSlot`: copying that enum in and out retained and released its payload (callgrind,
/// FlatMapsCreating: ~40 instructions per level, on the path of every flatMap over `just`).
@usableFromInline @frozen
struct MemberSlots {
    @inlinable static var sourceID: Int { 0 }

    @usableFromInline var sourceActive = true
    @usableFromInline var sourceDisposer: Disposer?
    /// Member `id` (other than the source) lives at `slots[id - 1]`.
    @usableFromInline var slots: [CompletionSlot] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var activeCount = 1

    @inlinable
    init() {}

    /// Whether every member has left.
    @inlinable
    var allLeft: Bool { activeCount == 0 }

    /// Registers one more member; returns its id.
    @usableFromInline
    mutating func enter() -> Int {
        activeCount += 1
        if let id = freeSlots.popLast() {
            slots[id - 1] = .active(nil)
            return id
        }
        slots.append(.active(nil))
        return slots.count
    }

    /// Keeps `disposer` for member `id` while it is active (one that already left has ended: nothing to keep).
    @usableFromInline
    mutating func store(_ disposer: consuming Disposer, for id: Int) {
        if id == Self.sourceID {
            if sourceActive { sourceDisposer = disposer }
            return
        }
        if case .active = slots[id - 1] {
            slots[id - 1] = .active(disposer)
        }
    }

    /// Member `id` left; false if it already had.
    @usableFromInline
    mutating func leave(_ id: Int) -> Bool {
        if id == Self.sourceID {
            guard sourceActive else { return false }
            sourceActive = false
            sourceDisposer = nil
        } else {
            guard case .active = slots[id - 1] else { return false }
            slots[id - 1] = .free
            freeSlots.append(id)
        }
        activeCount -= 1
        return true
    }

    /// Takes every member's disposer (the group ends); moved out rather than copied into a new array, so disposing
    /// allocates nothing.
    @usableFromInline
    mutating func takeAll() -> (source: Disposer?, members: [CompletionSlot]) {
        let taken = (sourceDisposer, slots)
        sourceActive = false
        sourceDisposer = nil
        slots = []
        freeSlots = []
        return taken
    }
}

/// A member slot of ``MemberSlots``. Not nested in a generic type: it would be generic too, and every use would look
/// its metadata up at run time.
@usableFromInline @frozen
enum CompletionSlot {
    case free
    /// Entered; the disposer once stored (nil while its subscription is being made).
    case active(Disposer?)

    /// The stored disposer of an active member.
    @usableFromInline
    var disposer: Disposer? {
        if case .active(let disposer) = self { disposer } else { nil }
    }
}
