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
        // Read under the lock: a list nobody propagates through changes in place (see `EdgeList.swift`), so a copy
        // of the edges does not keep its slots.
        lock.withLock {
            edges.downstream.map { unsafeDowncast($0.takeUnretainedValue(), to: DownstreamSlot<Value>.self).edge }
        }
    }

    public var hasListener: Bool {
        lock.withLock { edges.listenerCount > 0 }
    }
}
