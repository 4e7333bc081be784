// The engine's invariants, executable: built only with `-Xswiftc -DRIPPLE_INTERNAL_CHECKS`, run after every
// transaction (see `PropagationState.commit`). A violation stops with a message naming the invariant.
//
// Checked:
// - the transaction left nothing behind: no open frame, nothing in the rank queue or on the deferred stack, an
//   empty settle path, no open sibling count (`PropagationState.checkInvariants`);
// - the domain: locked by this thread's commit, a root (`Domain.swift`);
// - every node the transaction settled: its mark is a settled or origin mark of a frame already issued (never left
//   pending); its rank is below the rank of every node its forward edges reach (`Ranks.swift`); its edge store's
//   counts agree (tombstones counted, live counts within the list, see `EdgeList.swift`).

#if RIPPLE_INTERNAL_CHECKS
import Synchronization

/// A node the running transaction settled, checked at commit.
@usableFromInline
protocol InvariantChecked: AnyObject {
    func checkInvariants(lastFrame: UInt64)
}

extension Node: InvariantChecked {
    @usableFromInline
    func checkInvariants(lastFrame: UInt64) {
        lock.lock()
        let mark = self.mark
        let rank = Int(self.rank)
        let counts = edges.countsAgree
        lock.unlock()
        precondition(mark & ~3 != 0 && mark & ~3 <= lastFrame,
                     "invariant: node '\(name ?? "undefined")' has mark \(mark), not from an issued frame")
        precondition(mark & 3 != NodeMark.pending,
                     "invariant: node '\(name ?? "undefined")' was left pending by its transaction")
        precondition(counts, "invariant: node '\(name ?? "undefined")': the edge store's counts disagree")
        if rank < Int(Int32.max) {
            for target in forwardTargets() {
                precondition(target.currentRank > rank,
                             "invariant: rank \(target.currentRank) of a node downstream of '\(name ?? "undefined")' is not above its rank \(rank)")
            }
        }
    }
}

extension NodeEdges {
    /// Whether the list's tombstone counts match its tombstones. Call under the node's lock.
    var countsAgree: Bool {
        guard let list = editableList else { return true }
        let tombstone = list.tombstone
        var deadListeners = 0
        var deadDownstream = 0
        for index in 0..<list.listenerCount where list.elements[index].toOpaque() == tombstone {
            deadListeners += 1
        }
        for index in 0..<list.downstreamCount
        where list.elements[list.listenerCount + index].toOpaque() == tombstone {
            deadDownstream += 1
        }
        let (recordedListeners, recordedDownstream) = list.withUnsafeMutablePointerToHeader {
            ($0.pointee.deadListeners, $0.pointee.deadDownstream)
        }
        return deadListeners == recordedListeners && deadDownstream == recordedDownstream
    }
}

extension PropagationState {
    /// Checks every node the transaction settled, then forgets them.
    func checkTouchedNodes() {
        let lastFrame = frameIDs.load(ordering: .relaxed)
        let nodes = touched
        touched.removeAll()
        for node in nodes { node.checkInvariants(lastFrame: lastFrame) }
    }
}
#endif
