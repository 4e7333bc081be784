/// What a traversal visitor wants next.
public enum TraversalStep: Sendable {
    /// Keep walking.
    case proceed
    /// Stop the walk now.
    case stop
}

extension GraphNode {
    /// Visits every node reachable from this one along transforms in either direction, breadth-first, starting
    /// here; upstream transforms of a node come before its downstream ones, each in link order. Return
    /// ``TraversalStep/stop`` from `visitor` to end the walk (EasyReact's `EZRNodeVisitor`).
    public func traverse(_ visitor: (any GraphNode) throws -> TraversalStep) rethrows {
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        var queue: [any GraphNode] = [self]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if try visitor(node) == .stop { return }
            for edge in node.upstreamTransforms + node.downstreamTransforms {
                for neighbour in [edge.fromNode, edge.toNode].compactMap({ $0 })
                where seen.insert(ObjectIdentifier(neighbour)).inserted {
                    queue.append(neighbour)
                }
            }
        }
    }
}
