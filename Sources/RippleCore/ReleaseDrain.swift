// Invariants: freeing an object can free the next one from inside its deinit, and so on: a recursion as deep as a
// chain of objects that each hold the next. A room cuts such a chain every so often by handing the next object here
// instead of letting it go in place. The object joins the calling thread's list, and only the outermost hand-over on
// that thread empties the list, in a loop: an object freed from the loop that hands over its own successor appends
// it and returns. So freeing a chain of any length recurses at most as deep as the stretch between two hand-overs.
// Nothing outlives the outermost hand-over: the list is empty when it returns. One mechanism for every room
// (RippleSignals' deep recipes; RippleNodes' transforms and fused nodes can hand over their opaque references).

/// The calling thread's release drain (see the invariants above). Per thread, so unsynchronised.
package final class ReleaseDrain {
    @exclusivity(unchecked) private var pending: [Unmanaged<AnyObject>] = []
    @exclusivity(unchecked) private var draining = false

    /// Releases `object`, a reference the caller hands over (retained once for this call): at once, or, while this
    /// thread is already releasing, from the outermost release's loop.
    package static func release(_ object: Unmanaged<AnyObject>) {
        // Borrowed, not retained (the thread's key keeps the drain alive while the thread runs).
        releaseDrains.unretained(orMake: { ReleaseDrain() })._withUnsafeGuaranteedRef { $0.release(object) }
    }

    /// `release(_:)` for a retained opaque pointer (`Unmanaged.passRetained(x).toOpaque()`), as RippleNodes keeps
    /// them; nil does nothing.
    package static func release(retained object: UnsafeMutableRawPointer?) {
        guard let object else { return }
        release(Unmanaged<AnyObject>.fromOpaque(object))
    }

    /// Frees `value` (any value: a struct holding closures, an existential) through the drain. The caller must hold
    /// no other reference to what it wants freed here: pass it consumed.
    package static func release(value: consuming Any) {
        release(Unmanaged.passRetained(ReleasedValue(value) as AnyObject))
    }

    /// Whether the calling thread's drain holds nothing and runs no loop (for tests).
    package static var isIdle: Bool {
        guard let drain = releaseDrains.unretained?.takeUnretainedValue() else { return true }
        return drain.pending.isEmpty && !drain.draining
    }

    private func release(_ object: Unmanaged<AnyObject>) {
        pending.append(object)
        if draining { return }
        draining = true
        while let next = pending.popLast() {
            // A deinit this runs may hand over its successor: that appends to `pending` and returns.
            next.release()
        }
        draining = false
    }
}

/// A value held for the drain: freeing the box frees the value.
private final class ReleasedValue {
    let value: Any

    init(_ value: consuming Any) {
        self.value = value
    }
}

let releaseDrains = ThreadLocal<ReleaseDrain>()
