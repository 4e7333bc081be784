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
        lock.withLock { upstream.all }
    }

    public var downstreamTransforms: [any GraphEdge] {
        let edges = lock.withLock { self.edges }
        return edges.downstream.map { unsafeDowncast($0, to: DownstreamSlot<Value>.self).edge }
    }

    public var hasListener: Bool {
        lock.withLock { edges.listenerCount > 0 }
    }

    func addDownstream(_ slot: DownstreamSlot<Value>) {
        let released = lock.withLock { () -> ReleasedEdges in
            if isQuiescent, let list = edges.editableList, let index = list.appendDownstreamInPlace(slot) {
                slot.listIndex = index
                bumpEdgesVersion()
                return ReleasedEdges(replaced: nil, retired: nil)
            }
            let released = replaceEdges(edges.addingDownstream(slot))
            renumberEdges()
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
                if let removed = list.tombstone(typed, at: typed.listIndex, isListener: false) {
                    bumpEdgesVersion()
                    compactIfSparse(list)
                    return ReleasedEdges(replaced: removed, retired: nil)
                }
            }
            // Compared through `edgeRef`: reading `edge`, an existential, would retain and release it.
            let released = replaceEdges(edges.removingDownstream {
                UInt(bitPattern: unsafeDowncast($0, to: DownstreamSlot<Value>.self).edgeRef.toOpaque())
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
        list.compactInPlace { edge, index, isListener in
            if isListener {
                unsafeDowncast(edge, to: ListenEdge<Value>.self).listIndex = index
            } else {
                unsafeDowncast(edge, to: DownstreamSlot<Value>.self).listIndex = index
            }
        }
    }

    /// Adds `edge` to the listeners: in place when no propagation reads the list (see `EdgeList.swift`). Call under
    /// `lock`; release what it returns after unlocking.
    @usableFromInline
    final func insertListener(_ edge: ListenEdge<Value>) -> ReleasedEdges {
        if isQuiescent, let list = edges.editableList,
           let index = list.appendListenerInPlace(edge, renumber: { slot, index in
               unsafeDowncast(slot, to: DownstreamSlot<Value>.self).listIndex = index
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
               let removed = list.tombstone(edge, at: edge.listIndex, isListener: true) {
                bumpEdgesVersion()
                compactIfSparse(list)
                return ReleasedEdges(replaced: removed, retired: nil)
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
            let edge = elements[index].takeUnretainedValue()
            if index < listeners {
                unsafeDowncast(edge, to: ListenEdge<Value>.self).listIndex = index
            } else {
                unsafeDowncast(edge, to: DownstreamSlot<Value>.self).listIndex = index
            }
        }
    }

    func addUpstream(_ edge: any UpstreamEdge) {
        lock.withLock {
            upstream.append(edge)
            severalUpstreams = upstream.hasSeveral
        }
    }

    /// Returns the removed edge so that its last release happens outside the lock.
    func removeUpstreamEdge(_ id: ObjectIdentifier) -> UpstreamEdges {
        lock.withLock {
            let removed = upstream.remove(id)
            severalUpstreams = upstream.hasSeveral
            return removed
        }
    }
}
