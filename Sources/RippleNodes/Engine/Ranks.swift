// Ranks: the order a transaction settles nodes with several upstreams in, kept as edges are linked.
//
// Invariants:
// - For every forward edge, `rank(to) > rank(from)`; sources start at 0. Linking raises `to` (and, through an
//   explicit worklist, whatever downstream of it must rise): no recursion, whatever the depth. When `to` would have
//   to walk and nothing feeds `from`, `from` goes below `to` instead (ranks may be negative): one step.
// - A new edge whose `to` reaches its `from` along forward edges closes a cycle: it becomes a *back edge*, raises
//   nothing and is never walked by later raises, so every walk runs over a graph without cycles and ends. A back
//   edge pushes into a node of lower rank; the cycle rule (`CycleRule.swift`) stops the ring after one lap.
// - Unlinking never lowers a rank: an over-estimate is still an order.
// - Ranks are read and written under each node's own lock, one node at a time. Two threads linking at once may
//   leave a rank too low for a moment; the only consequence is that a transaction running meanwhile may settle a
//   node early once (a glitch), never a lost value or an endless walk.

/// A node seen by the rank walk, without its value type.
protocol RankedNode: AnyObject {
    /// Raises the rank to `wanted` if lower, when the node has no forward downstream edge; returns false when it
    /// has some (the caller must walk).
    func raiseRankIfLeaf(to wanted: Int) -> Bool
    var currentRank: Int { get }
    func setRank(_ rank: Int)
    /// The `to` nodes of this node's forward downstream edges.
    func forwardTargets() -> [any RankedNode]
}

extension Node: RankedNode {
    func raiseRankIfLeaf(to wanted: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if rank >= wanted { return true }
        if edges.downstreamIsEmpty {
            rank = Int32(clamping: wanted)
            return true
        }
        return false
    }

    var currentRank: Int {
        lock.withLock { Int(rank) }
    }

    func setRank(_ newRank: Int) {
        lock.withLock { rank = max(rank, Int32(clamping: newRank)) }
    }

    func forwardTargets() -> [any RankedNode] {
        // Upgraded under the lock: a list nobody propagates through changes in place, so a copy of the edges does not
        // keep its slots.
        let objects: [AnyObject] = lock.withLock {
            edges.downstream.compactMap { entry in
                let slot = unsafeDowncast(entry.takeUnretainedValue(), to: DownstreamSlot<Value>.self)
                guard !slot.isBackEdge else { return nil }
                return slot.target.retained()?.takeRetainedValue()
            }
        }
        return objects.compactMap { $0 as? any RankedNode }
    }
}

extension Node {
    /// Keeps ranks ordered for a new edge from this node to `target` and says whether it is a back edge (it closes
    /// a cycle). The common case, a `target` ranked higher already or without downstream edges (every operator's new
    /// node), costs two locks and no existential: wrapping a generic node in `any RankedNode` looks its conformance
    /// up at run time (~900 instructions a link, measured on MapFilterCreating).
    final func rankNewEdge<Output: Sendable>(to target: Node<Output>) -> Bool {
        let wanted = currentRank + 1
        if target.raiseRankIfLeaf(to: wanted) { return false }
        if lowerRankIfSource(below: target.currentRank) { return false }
        return rankNewEdgeWalking(from: self, to: target, wanted: wanted)
    }

    /// Lowers this node's rank below `limit` when nothing feeds it (no upstream edge), and says whether it did. Such
    /// a node has no rank below it to keep in order, and no path can reach it, so the new edge closes no cycle.
    /// Linking a new source above the head of a chain (`head.link(to: source)`, again and again) then costs one
    /// step instead of a walk raising the whole chain below (8,000 such links: 14 s, quadratic; now linear).
    private func lowerRankIfSource(below limit: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard upstream.isEmpty else { return false }
        rank = Int32(clamping: min(Int(rank), limit - 1))
        return Int(rank) < limit
    }
}

/// ``Node/rankNewEdge(to:)`` when `target` has downstream edges: the worklist walk.
func rankNewEdgeWalking(from source: any RankedNode, to target: any RankedNode, wanted: Int) -> Bool {
    let sourceID = ObjectIdentifier(source)
    var work: [(node: any RankedNode, rank: Int)] = [(target, wanted)]
    var raised: [ObjectIdentifier: (node: any RankedNode, rank: Int)] = [:]
    var head = 0
    while head < work.count {
        let (node, rank) = work[head]
        head += 1
        let id = ObjectIdentifier(node)
        if id == sourceID { return true }
        if (raised[id]?.rank ?? node.currentRank) >= rank { continue }
        raised[id] = (node, rank)
        for next in node.forwardTargets() { work.append((next, rank + 1)) }
    }
    for (_, entry) in raised { entry.node.setRank(entry.rank) }
    return false
}
