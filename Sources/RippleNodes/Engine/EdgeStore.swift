import RippleCore
import Synchronization

// Edge-store mutation: how a node's listener and downstream lists change (the graph queries that read them are in
// `Node/GraphNode.swift`).
//
// Invariants:
// - Every change happens holding the graph's domain (see `Domain.swift`), then the node's lock: a transaction sees
//   an edge either before or after it is linked, never half-way, and propagation reads lists with no reader count
//   (`EdgeSnapshot.swift`). Links hold the domain through `PropagationState.withDomains`; a cancel and the unlink of
//   a freed node's transforms through ``Node/withEdgeDomain(_:)``, which defers the change to a later transaction
//   when this thread runs one of another, busy graph.
// - A list this thread is not reading (`isBeingRead`) and no queued listener call reads changes in place (tombstones,
//   appends, compaction); otherwise it is replaced as a whole, and the old one is released when the transaction
//   commits or the last queued call reading it has run.
// - Every slot's `listIndex` is where the list holds it.

extension Node {
    /// Appends `entry` (a slot) to the downstream edges.
    func addDownstream(_ entry: Unmanaged<AnyObject>) {
        let released = lock.withLock { addDownstreamLocked(entry) }
        extendLifetime(released)
    }

    /// ``addDownstream(_:)`` under `lock`; release what it returns after unlocking.
    func addDownstreamLocked(_ entry: Unmanaged<AnyObject>) -> AnyObject? {
        if edges.isNone {
            // The first edge (every operator's new node): no list to retire, and a lone edge has no index.
            edges = edges.addingDownstream(entry)
            bumpEdgesVersion()
            return nil
        }
        if let list = listEditableInPlace, let index = list.appendDownstreamInPlace(entry) {
            setListIndex(of: entry, to: index)
            bumpEdgesVersion()
            return nil
        }
        let released = replaceEdges(edges.addingDownstream(entry))
        renumberEdges()
        return released
    }

    /// The list to change in place, or nil when it must be replaced: this thread is reading it (`isBeingRead`), or a
    /// queued listener call is (see `EdgeList.addQueuedReader()`). Call under `lock`, holding the domain.
    /// The list is asked first: a lone edge (most nodes) has none, and the settle-path search is then skipped.
    @inline(__always)
    private var listEditableInPlace: EdgeList? {
        guard let list = edges.editableList, !list.hasQueuedReaders, !isBeingRead else { return nil }
        return list
    }

    /// Tells a downstream slot where the list holds it. Call under `lock`.
    private func setListIndex(of entry: Unmanaged<AnyObject>, to index: Int) {
        unsafeDowncast(entry.takeUnretainedValue(), to: DownstreamSlot<Value>.self).listIndex = index
    }

    /// Unlinks the transform `id`, whose slot here is `slot` (unretained; nil when unknown). The caller holds the
    /// transform, so removing it here never frees it under the lock.
    func removeDownstreamEdge(_ id: ObjectIdentifier, slot: Unmanaged<AnyObject>?) {
        let released = lock.withLock { () -> AnyObject? in
            if let slot, let list = listEditableInPlace {
                let typed = unsafeDowncast(slot.takeUnretainedValue(), to: DownstreamSlot<Value>.self)
                if let removed = list.tombstone(slot, at: typed.listIndex, isListener: false) {
                    bumpEdgesVersion()
                    compactIfSparse(list)
                    return removed.takeRetainedValue()
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
    final func insertListener(_ edge: ListenEdge<Value>) -> AnyObject? {
        if let list = listEditableInPlace,
           let index = list.appendListenerInPlace(edge, renumber: { entry, index in
               setListIndex(of: entry, to: index)
           }) {
            edge.listIndex = index
            if edge.wantsSenders { list.someListenerWantsSenders = true }
            bumpEdgesVersion()
            return nil
        }
        let released = replaceEdges(edges.addingListener(edge))
        renumberEdges()
        return released
    }

    /// Cancels `edge`: it hears nothing from now on (its `callState` is read before every call), and it
    /// leaves the list under the graph's domain, now or, when this thread runs a transaction of another graph that
    /// is busy, once that transaction ends.
    func detachListener(_ edge: ListenEdge<Value>) {
        edge.callState.bitwiseOr(ListenEdge<Value>.detachedBit, ordering: .releasing)
        let detached = withEdgeDomain { [self] in
            let released = lock.withLock { removeListenerLocked(edge) }
            extendLifetime(released)
        }
        if !detached {
            PropagationState.current.takeUnretainedValue().queueJob { [self] in detachListener(edge) }
        }
    }

    /// Drops `edge` from the listeners. Call under `lock`, holding the domain; release what it returns after
    /// unlocking.
    private func removeListenerLocked(_ edge: ListenEdge<Value>) -> AnyObject? {
        if let list = listEditableInPlace,
           let removed = list.tombstone(.passUnretained(edge), at: edge.listIndex, isListener: true) {
            bumpEdgesVersion()
            compactIfSparse(list)
            return removed.takeRetainedValue()
        }
        let released = replaceEdges(edges.removingListener(edge))
        renumberEdges()
        return released
    }

    /// Runs `change` holding this node's domain: at once when this thread holds it (or can take it over without
    /// waiting), as a transaction of its own when the thread holds none. Returns false, without running `change`,
    /// when the thread runs a transaction of another graph whose domain is busy: the caller defers the change (a
    /// thread waits for a domain only while it holds none, see `Domain.swift`). Call holding no node lock.
    final func withEdgeDomain(_ change: () -> Void) -> Bool {
        let state = threadState.takeUnretainedValue()
        if let held = state.held {
            guard joinDomainIfFree(held) else { return false }
            change()
            return true
        }
        state.transact(holding: lockOwnDomain(), change)
        return true
    }

    /// How many queued (or parked) calls of several listeners still count as readers of this node's list: 0 once
    /// every call has run and its thread has ended its batch. For tests: a count left behind makes every later attach
    /// or cancel copy the list.
    package var queuedListReaders: Int {
        var readers = 0
        let read = withEdgeDomain { readers = lock.withLock { edges.editableList?.queuedReaderCount ?? 0 } }
        // Asked inside a transaction of another, busy graph, the domain could not be taken: no count to give.
        precondition(read, "Node.queuedListReaders: asked while this thread runs a transaction of a busy graph")
        return readers
    }

    /// Tells every listener and slot where the (new) list holds it, and the list whether a listener reads sender
    /// lists. Call under `lock`, holding the domain.
    func renumberEdges() {
        guard let list = edges.editableList else { return }
        let tombstone = list.tombstone
        let elements = list.elements
        let listeners = list.listenerCount
        var wantsSenders = false
        for index in 0..<(listeners + list.downstreamCount) where elements[index].toOpaque() != tombstone {
            if index < listeners {
                let listener = unsafeDowncast(elements[index].takeUnretainedValue(), to: ListenEdge<Value>.self)
                listener.listIndex = index
                wantsSenders = wantsSenders || listener.wantsSenders
            } else {
                setListIndex(of: elements[index], to: index)
            }
        }
        list.someListenerWantsSenders = wantsSenders
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
