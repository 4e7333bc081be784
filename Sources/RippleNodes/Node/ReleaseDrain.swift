// The release drain: freeing a long chain without a deep stack.
//
// Invariants:
// - Freeing a node unlinks its upstream transforms, which let go of their `from` node; if that was the last
//   reference, that node is freed in turn, and so on up the chain: a recursion as deep as the chain. Instead the
//   reference moves onto the thread's release list, and only the outermost release on the thread empties the list,
//   in a loop: a freed node's own upstreams join the list rather than the call stack.
// - Only references that may start such a chain go through here (a transform's `from` as its `to` is freed).

extension PropagationState {
    /// Moves `object` out of the caller's variable and releases it: at once, or, while this thread is already
    /// releasing, from the outermost release's loop.
    static func releaseDeferred(_ object: inout AnyObject?) {
        guard object != nil else { return }
        let state = current.takeUnretainedValue()
        // Moved straight into the list: a local copy would keep it alive past the loop below.
        state.releases.append(object.take().unsafelyUnwrapped)
        if state.releasing { return }
        state.releasing = true
        while let next = state.releases.popLast() {
            // The last reference goes at the end of each turn: a deinit it runs appends to the list and returns.
            _ = next
        }
        state.releasing = false
    }
}
