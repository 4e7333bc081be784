// The release drain: freeing a long chain without a deep stack.
//
// Invariants:
// - Freeing a node unlinks its upstream transforms, which let go of their `from` node; if that was the last
//   reference, that node is freed in turn, and so on up the chain: a recursion as deep as the chain. Instead the
//   reference moves onto the thread's release list, and only the outermost release on the thread empties the list,
//   in a loop: a freed node's own upstreams join the list rather than the call stack.
// - Only references that may start such a chain go through here (a transform's `from` as its `to` is freed).

extension PropagationState {
    /// Releases `object` (a retained reference the caller hands over): at once, or, while this thread is already
    /// releasing, from the outermost release's loop.
    static func releaseDeferred(_ object: UnsafeMutableRawPointer?) {
        guard let object else { return }
        // Borrowed, not retained (the thread's key keeps it alive): a retain and release pair per freed node.
        current._withUnsafeGuaranteedRef { state in
            state.releases.append(object)
            if state.releasing { return }
            state.releasing = true
            while let next = state.releases.popLast() {
                // A deinit this runs appends to the list and returns.
                Unmanaged<AnyObject>.fromOpaque(next).release()
            }
            state.releasing = false
        }
    }
}
