// The cycle rule: within one transaction no edge sets a node that was already set in it.
//
// Invariants:
// - A node's `mark` (under its lock) is the id of the last frame that touched it plus how: pending (waiting to
//   settle; a later push overwrites the waiting value), origin (set by the user in a batch, waiting; pushes never
//   overwrite it) or settled (its listeners ran; pushes are dropped).
// - So a ring entered anywhere settles after one lap: the push that comes back to the node where the change began
//   finds it settled (or an origin) and stops, and that node is never overwritten by its echo. No path is scanned.
// - A push into a node that a frame further out on this thread has touched (a listener set a node feeding back
//   into a node still settling) waits as a job and runs after the outermost frame, as its own transaction.
// - A push into a node the frame blocks (the node a link pushes from, the senders a value carried across a
//   scheduler) is dropped, as engine 1's sender list did.
// - In a graph without cycles ranks make all of this moot: a node settles after every upstream, and nothing pushes
//   into it afterwards.

/// How a node took part in the frame its mark names (the low two bits of `Node.mark`; frame ids are multiples of 4).
@usableFromInline
enum NodeMark {
    @usableFromInline static let pending: UInt64 = 1
    @usableFromInline static let origin: UInt64 = 2
    @usableFromInline static let settled: UInt64 = 3
}

/// What a push does to a node, given its mark.
@usableFromInline
enum Admission {
    /// First touch in this frame.
    case fresh
    /// Waiting to settle in this frame: take the newer value.
    case overwrite
    /// Settled in this frame, an origin of it, or blocked: the cycle cut.
    case drop
    /// Touched by a frame further out: run later, as a transaction of its own.
    case later
}

extension PropagationState {
    /// The cycle rule for a push into the node `id`, whose mark is `mark`.
    @inlinable @inline(__always)
    func admit(mark: UInt64, id: ObjectIdentifier) -> Admission {
        let markFrame = mark & ~3
        if markFrame == frame { return mark & 3 == NodeMark.pending ? .overwrite : .drop }
        // The common case, a set with no frame further out and nothing blocked, stops here.
        if !guarded { return .fresh }
        if markFrame != 0 && isOuter(markFrame) { return .later }
        if isBlocked(id) { return .drop }
        return .fresh
    }
}
