// The elements of a node's edge store (`EdgeList`, `NodeEdges`): listeners and downstream slots, held retained, and
// fused operator nodes (see `FusedNode.swift`), held without any count.
//
// Invariants:
// - A fused entry is the node's address with bit 0 set (objects are at least 16-byte aligned, so no real reference
//   has it): one test tells the two kinds apart, and no code mistakes a fused entry for a retained one.
// - A fused entry is valid (its memory allocated) while it is in the current edges of its upstream node, read under
//   that node's lock, or in edges a propagation took (`EdgeReaders.swift`) before it was removed: the fused node's
//   deinit removes it under the upstream's lock, and keeps its own memory (an unowned reference) until every reader
//   of the old edges has left. Dereference one only there, and upgrade it with `swift_tryRetain` first: it may be
//   deinitialising.

/// Whether `entry` is a fused operator node rather than a retained listener or slot.
@inlinable @inline(__always)
func isFusedEntry(_ entry: Unmanaged<AnyObject>) -> Bool {
    UInt(bitPattern: entry.toOpaque()) & 1 != 0
}

/// The entry of a fused node: its address, tagged.
@inlinable @inline(__always)
func fusedEntry(_ node: AnyObject) -> Unmanaged<AnyObject> {
    .fromOpaque(Unmanaged.passUnretained(node).toOpaque() + 1)
}

/// The fused node a fused entry stands for, untagged (not retained).
@inlinable @inline(__always)
func fusedNodeAddress(_ entry: Unmanaged<AnyObject>) -> UnsafeMutableRawPointer {
    entry.toOpaque() - 1
}

/// The fused node a fused entry stands for, retained, or nil once it has begun deinitialising. Call where the entry
/// is valid (see above).
func retainedFusedNode(_ entry: Unmanaged<AnyObject>) -> NodeBase? {
    guard let tryRetain = runtimeTryRetain, let retained = tryRetain(fusedNodeAddress(entry)) else { return nil }
    return Unmanaged<NodeBase>.fromOpaque(retained).takeRetainedValue()
}

/// `entry`, with the count a list holds taken: retained, unless it is a fused node (held without a count).
@inline(__always)
func retainedEntry(_ entry: Unmanaged<AnyObject>) -> Unmanaged<AnyObject> {
    isFusedEntry(entry) ? entry : entry.retain()
}

/// Drops the count a list held on `entry`.
@inline(__always)
func releaseEntry(_ entry: Unmanaged<AnyObject>) {
    if !isFusedEntry(entry) { entry.release() }
}

/// Keeps a fused node's memory allocated (not the node alive) after its deinit, until the upstream's readers that
/// may still hold its entry have left: parked with the upstream's retired edges (see `EdgeReaders.swift`). It keeps
/// the operator (its closure) too, as a parked list keeps an unlinked transform: what a propagation was reading stays
/// alive until it ends.
final class FusedMemoryHold {
    unowned let node: AnyObject
    let operation: FusedPushThunk

    init(_ node: AnyObject, operation: @escaping FusedPushThunk) {
        self.node = node
        self.operation = operation
    }
}
