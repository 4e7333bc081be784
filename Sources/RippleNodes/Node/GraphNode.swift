import Synchronization

/// A node seen without its value type: what graph queries and traversal hand out.
public protocol GraphNode: AnyObject, Sendable {
    var name: String? { get }
    /// Transforms that push into this node, in link order.
    var upstreamTransforms: [any GraphEdge] { get }
    /// Transforms this node pushes along, in link order.
    var downstreamTransforms: [any GraphEdge] { get }
    /// Whether at least one listener is attached.
    var hasListener: Bool { get }
}

/// A transform seen without its value types.
public protocol GraphEdge: AnyObject, Sendable {
    var name: String? { get }
    /// The upstream node (`Transform.from`).
    var fromNode: (any GraphNode)? { get }
    /// The downstream node (`Transform.to`).
    var toNode: (any GraphNode)? { get }
    /// Unlinks the edge from both nodes.
    func detach()
}

extension GraphNode {
    /// Every distinct node pushing into this one, in link order.
    public var upstreamNodes: [any GraphNode] {
        distinct(upstreamTransforms.compactMap(\.fromNode))
    }

    /// Every distinct node this one pushes into, in link order.
    public var downstreamNodes: [any GraphNode] {
        distinct(downstreamTransforms.compactMap(\.toNode))
    }

    /// The transforms linking `node` to this one (`upstreamTransformsFromNode:`).
    public func upstreamTransforms(from node: any GraphNode) -> [any GraphEdge] {
        upstreamTransforms.filter { $0.fromNode === node }
    }

    /// The transforms linking this node to `node` (`downstreamTransformsToNode:`).
    public func downstreamTransforms(to node: any GraphNode) -> [any GraphEdge] {
        downstreamTransforms.filter { $0.toNode === node }
    }

    /// Unlinks every transform from `node` into this one.
    public func removeUpstream(_ node: any GraphNode) {
        for edge in upstreamTransforms(from: node) { edge.detach() }
    }

    /// Unlinks every transform from this node into `node`.
    public func removeDownstream(_ node: any GraphNode) {
        for edge in downstreamTransforms(to: node) { edge.detach() }
    }

    /// Unlinks every upstream transform.
    public func removeUpstreams() {
        for edge in upstreamTransforms { edge.detach() }
    }

    /// Unlinks every downstream transform.
    public func removeDownstreams() {
        for edge in downstreamTransforms { edge.detach() }
    }
}

private func distinct(_ nodes: [any GraphNode]) -> [any GraphNode] {
    var seen = Set<ObjectIdentifier>()
    return nodes.filter { seen.insert(ObjectIdentifier($0)).inserted }
}

/// An edge a node pushes values into; the values themselves travel through its `DownstreamSlot` thunk.
@usableFromInline
protocol DownstreamEdge: GraphEdge {}

/// An edge a node holds strongly as one of its inputs.
@usableFromInline
protocol UpstreamEdge: GraphEdge {
    /// The node this edge feeds was freed.
    func targetDidDeinit()
}

extension Node {
    public var upstreamTransforms: [any GraphEdge] {
        // A fused operator becomes a plain transform first, so the query can hand it out (see `FusedNode.swift`).
        materializeFusedInlet()
        return lock.withLock { upstream.all }
    }

    public var downstreamTransforms: [any GraphEdge] {
        materializeFusedDownstream()
        // Read under the lock: a list nobody propagates through changes in place (see `EdgeList.swift`), so a copy
        // of the edges does not keep its slots. Fused entries linked since are left out.
        return lock.withLock {
            edges.downstream.compactMap {
                isFusedEntry($0) ? nil : unsafeDowncast($0.takeUnretainedValue(), to: DownstreamSlot<Value>.self).edge
            }
        }
    }

    /// Turns every fused operator node downstream into a node linked by a plain transform.
    private func materializeFusedDownstream() {
        // Upgraded under the lock, where a fused entry is valid (see `EdgeEntry.swift`).
        let fused: [NodeBase] = lock.withLock {
            edges.downstream.compactMap { isFusedEntry($0) ? retainedFusedNode($0) : nil }
        }
        for node in fused { node.materializeFusedInlet() }
    }

    public var hasListener: Bool {
        lock.withLock { edges.listenerCount > 0 }
    }

    /// Appends `entry` (a slot, or a fused node's entry) to the downstream edges.
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

    /// Tells a downstream entry where the list holds it. Call under `lock`.
    private func setListIndex(of entry: Unmanaged<AnyObject>, to index: Int) {
        if isFusedEntry(entry) {
            Unmanaged<NodeBase>.fromOpaque(fusedNodeAddress(entry))._withUnsafeGuaranteedRef {
                $0.fusedListIndex = index
            }
        } else {
            unsafeDowncast(entry.takeUnretainedValue(), to: DownstreamSlot<Value>.self).listIndex = index
        }
    }

    /// Removes the fused node `node`'s entry from the downstream edges, from its deinit, or replaces it with
    /// `replacement` when it becomes a plain transform. Readers still out may hold the entry: then `node`'s memory
    /// is kept until they leave (see `EdgeEntry.swift`).
    func removeFusedDownstream(_ node: NodeBase, operation: @escaping FusedPushThunk,
                               replacement: Unmanaged<AnyObject>? = nil) {
        let entry = fusedEntry(node)
        let released = lock.withLock { () -> ReleasedEdges in
            // The index is guarded by this lock.
            if isQuiescent, let list = edges.editableList, replacement == nil,
               list.tombstone(entry, at: node.fusedListIndex, isListener: false) != nil {
                bumpEdgesVersion()
                compactIfSparse(list)
                return ReleasedEdges(replaced: nil, retired: nil)
            }
            // No reader can enter while the lock is held: one that is out now is the only kind to wait for.
            let held = isQuiescent ? nil : holdUntilRead(FusedMemoryHold(node, operation: operation))
            if replacement == nil && edges.shape == .loneFused {
                // The node's only edge (a chain): no list to retire, and no edges left.
                edges = .empty
                bumpEdgesVersion()
                return ReleasedEdges(replaced: nil, retired: held)
            }
            let changed = replacement.map { edges.replacingDownstream(entry, with: $0) }
                ?? edges.removingDownstream { $0.toOpaque() == entry.toOpaque() }
            var released = replaceEdges(changed)
            renumberEdges()
            if let held { released.retired = (released.retired ?? []) + held }
            return released
        }
        extendLifetime(released)
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
                !isFusedEntry($0) && UInt(bitPattern: unsafeDowncast($0.takeUnretainedValue(),
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

    /// Counts a fused operator's inlet as an upstream too. Call under `lock`.
    final func updateSeveralUpstreams() {
        severalUpstreams = upstream.hasSeveral || (hasFusedInlet && !upstream.isEmpty)
    }
}
