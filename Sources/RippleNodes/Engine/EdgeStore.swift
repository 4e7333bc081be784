import RippleCore
import Synchronization

// Edge-store mutation: how a node's listener and downstream lists change (the graph queries that read them are in
// `Node/GraphNode.swift`).
//
// Invariants:
// - Every change happens under the node's lock; links that push a value also hold the graph's domain (see
//   `Domain.swift`), so a transaction sees an edge either before or after it is linked, never half-way.
// - A list nobody propagates through (`isQuiescent`) changes in place (tombstones, appends, compaction); otherwise it
//   is replaced as a whole and the old one is parked until its readers leave (`EdgeReaders.swift`).
// - Every slot's `listIndex` is where the list holds it.

extension Node {
    /// Appends `entry` (a slot) to the downstream edges.
    func addDownstream(_ entry: Unmanaged<AnyObject>) {
        let released = lock.withLock { addDownstreamLocked(entry) }
        extendLifetime(released)
    }

    /// ``addDownstream(_:)`` under `lock`; release what it returns after unlocking.
    func addDownstreamLocked(_ entry: Unmanaged<AnyObject>) -> ReleasedEdges {
        if edges.isNone {
            // The first edge (every operator's new node): no list to retire, and a lone edge has no index.
            edges = edges.addingDownstream(entry)
            bumpEdgesVersion()
            return ReleasedEdges(replaced: nil, retired: nil)
        }
        if isQuiescent, let list = edges.editableList, let index = list.appendDownstreamInPlace(entry) {
            setListIndex(of: entry, to: index)
            bumpEdgesVersion()
            return ReleasedEdges(replaced: nil, retired: nil)
        }
        let released = replaceEdges(edges.addingDownstream(entry))
        renumberEdges()
        return released
    }

    /// Tells a downstream slot where the list holds it. Call under `lock`.
    private func setListIndex(of entry: Unmanaged<AnyObject>, to index: Int) {
        unsafeDowncast(entry.takeUnretainedValue(), to: DownstreamSlot<Value>.self).listIndex = index
    }

    /// Unlinks the transform `id`, whose slot here is `slot` (unretained; nil when unknown). The caller holds the
    /// transform, so removing it here never frees it under the lock.
    func removeDownstreamEdge(_ id: ObjectIdentifier, slot: Unmanaged<AnyObject>?) {
        let released = lock.withLock { () -> ReleasedEdges in
            if let slot, isQuiescent, let list = edges.editableList {
                let typed = unsafeDowncast(slot.takeUnretainedValue(), to: DownstreamSlot<Value>.self)
                if let removed = list.tombstone(slot, at: typed.listIndex, isListener: false) {
                    bumpEdgesVersion()
                    compactIfSparse(list)
                    return ReleasedEdges(replaced: removed.takeRetainedValue(), retired: nil)
                }
            }
            // Compared through `edgeRef`: reading `edge`, an existential, would retain and release it.
            let released = replaceEdges(edges.removingDownstream {
                UInt(bitPattern: unsafeDowncast($0.takeUnretainedValue(),
                                                                  to: DownstreamSlot<Value>.self).edgeRef.toOpaque())
                    == UInt(bitPattern: id)
            })
            renumberEdges()
            return released
        }
        extendLifetime(released)
    }

    /// Squeezes `list`'s tombstones out once they are more than half of it. Call under `lock`, with no reader.
    private func compactIfSparse(_ list: EdgeList) {
        guard list.needsCompaction else { return }
        list.compactInPlace { entry, index, isListener in
            if isListener {
                unsafeDowncast(entry.takeUnretainedValue(), to: ListenEdge<Value>.self).listIndex = index
            } else {
                setListIndex(of: entry, to: index)
            }
        }
    }

    /// Adds `edge` to the listeners: in place when no propagation reads the list (see `EdgeList.swift`). Call under
    /// `lock`; release what it returns after unlocking.
    @usableFromInline
    final func insertListener(_ edge: ListenEdge<Value>) -> ReleasedEdges {
        if isQuiescent, let list = edges.editableList,
           let index = list.appendListenerInPlace(edge, renumber: { entry, index in
               setListIndex(of: entry, to: index)
           }) {
            edge.listIndex = index
            bumpEdgesVersion()
            return ReleasedEdges(replaced: nil, retired: nil)
        }
        let released = replaceEdges(edges.addingListener(edge))
        renumberEdges()
        return released
    }

    /// Marks `edge` dead and drops it, under the lock propagation reads its flag with. Returns what to release after
    /// the caller is done: the last release of anything in it happens outside the lock.
    func removeListener(_ edge: ListenEdge<Value>) -> ReleasedEdges {
        lock.withLock {
            edge.live = false
            if isQuiescent, let list = edges.editableList,
               let removed = list.tombstone(.passUnretained(edge), at: edge.listIndex, isListener: true) {
                bumpEdgesVersion()
                compactIfSparse(list)
                return ReleasedEdges(replaced: removed.takeRetainedValue(), retired: nil)
            }
            let released = replaceEdges(edges.removingListener(edge))
            renumberEdges()
            return released
        }
    }

    /// Whether no propagation is reading the edge list, so it may change in place. Call under `lock`.
    var isQuiescent: Bool {
        edgeReadersExited.load(ordering: .sequentiallyConsistent) == edgeReadersEntered
    }

    /// Tells every listener and slot where the (new) list holds it. Call under `lock`.
    func renumberEdges() {
        guard let list = edges.editableList else { return }
        let tombstone = list.tombstone
        let elements = list.elements
        let listeners = list.listenerCount
        for index in 0..<(listeners + list.downstreamCount) where elements[index].toOpaque() != tombstone {
            if index < listeners {
                unsafeDowncast(elements[index].takeUnretainedValue(), to: ListenEdge<Value>.self).listIndex = index
            } else {
                setListIndex(of: elements[index], to: index)
            }
        }
    }

    func addUpstream(_ edge: any UpstreamEdge) {
        lock.withLock {
            upstream.append(edge)
            updateSeveralUpstreams()
        }
    }

    /// Returns the removed edge so that its last release happens outside the lock.
    func removeUpstreamEdge(_ id: ObjectIdentifier) -> UpstreamEdges {
        lock.withLock {
            let removed = upstream.remove(id)
            updateSeveralUpstreams()
            return removed
        }
    }

    /// Whether more than one transform feeds this node. Call under `lock`.
    final func updateSeveralUpstreams() {
        severalUpstreams = upstream.hasSeveral
    }
}
