// Invariants: a graph's text is a function of the live graph alone: nodes are numbered in `traverse(_:)` order and
// edges listed in the order they are found, so the same graph always gives the same text. A node's label is its name,
// or, unnamed, its type and number ("MutableNode<Int> #0"), never "undefined"; an edge's label is its transform's name,
// or its transform's type. Labels are read once, up front; no user code runs while the text is written.

/// The text formats ``GraphNode/graph(format:)`` can write.
public enum GraphFormat: Sendable {
    /// Graphviz DOT: `circo -Tpdf graph.dot -o graph.pdf`.
    case dot
    /// Mermaid flowchart text, which GitHub renders in Markdown.
    case mermaid
    /// A plain-text picture, one row of boxes per rank (sources on top), each row followed by the transforms
    /// leaving it; for a terminal, a log or a doc comment. See ``GraphNode/graph(format:)``.
    case text
}

extension GraphNode {
    /// Text describing every node and transform reachable from this node, labelled with their names; an unnamed
    /// node is labelled with its type and number (`Node<Int> #2`), an unnamed transform with its type. Nodes are
    /// numbered in ``traverse(_:)`` order and edges listed in the order they are found, so the same graph always
    /// gives the same text.
    ///
    /// `.text` draws the graph by rank: a node's rank is the length of the longest path to it from a node nobody
    /// pushes into, along transforms that do not close a cycle. Each rank is a row of boxes; under it, the
    /// transforms leaving that row, `from --label--> to`, with the target's rank when it is not the next row (a
    /// transform that closes a cycle points up):
    ///
    /// ```
    /// +-----+
    /// | top |
    /// +-----+
    ///   top --map--> left
    ///   top --map--> right
    /// +------+  +-------+
    /// | left |  | right |
    /// +------+  +-------+
    ///   left --combine--> sum
    ///   right --combine--> sum
    /// +-----+
    /// | sum |
    /// +-----+
    /// ```
    public func graph(format: GraphFormat = .dot) -> String {
        let snapshot = GraphSnapshot(from: self)
        switch format {
        case .dot:
            return snapshot.dot()
        case .mermaid:
            return snapshot.mermaid()
        case .text:
            return snapshot.diagram()
        }
    }
}

/// The nodes and transforms reachable from one node, with their labels, read once.
struct GraphSnapshot {
    struct Edge {
        let from: Int
        let to: Int
        let label: String
    }

    /// Labels in `traverse(_:)` order; a node's number is its index here.
    var labels: [String] = []
    var listened: [Bool] = []
    var edges: [Edge] = []

    init(from start: any GraphNode) {
        var nodes: [any GraphNode] = []
        start.traverse { node in
            nodes.append(node)
            return .proceed
        }
        var numbers: [ObjectIdentifier: Int] = [:]
        for (index, node) in nodes.enumerated() { numbers[ObjectIdentifier(node)] = index }
        var seenEdges = Set<ObjectIdentifier>()
        for node in nodes {
            for edge in node.upstreamTransforms + node.downstreamTransforms
            where seenEdges.insert(ObjectIdentifier(edge)).inserted {
                guard let from = edge.fromNode, let to = edge.toNode,
                      let fromNumber = numbers[ObjectIdentifier(from)], let toNumber = numbers[ObjectIdentifier(to)]
                else { continue }
                edges.append(Edge(from: fromNumber, to: toNumber, label: edge.name ?? typeLabel(of: edge)))
            }
        }
        labels = nodes.enumerated().map { index, node in node.name ?? "\(typeLabel(of: node)) #\(index)" }
        listened = nodes.map(\.hasListener)
    }

    func dot() -> String {
        var lines = ["digraph G {", "  node [shape=box];"]
        for (index, label) in labels.enumerated() {
            let style = listened[index] ? ", style=bold" : ""
            lines.append("  n\(index) [label=\"\(escapeDOT(label))\"\(style)];")
        }
        for edge in edges {
            lines.append("  n\(edge.from) -> n\(edge.to) [label=\"\(escapeDOT(edge.label))\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func mermaid() -> String {
        var lines = ["flowchart TD"]
        for (index, label) in labels.enumerated() {
            lines.append("  n\(index)[\"\(escapeMermaid(label))\"]")
        }
        for edge in edges {
            lines.append("  n\(edge.from) -->|\"\(escapeMermaid(edge.label))\"| n\(edge.to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `MutableNode<Int>`, `Node<String>`: the public class a node is seen as (internal operator subclasses are `Node`).
protocol GraphTypeLabelled {
    var graphTypeLabel: String { get }
}

extension Node: GraphTypeLabelled {
    var graphTypeLabel: String {
        self is MutableNode<Value> ? "MutableNode<\(Value.self)>" : "Node<\(Value.self)>"
    }
}

private func typeLabel(of node: any GraphNode) -> String {
    (node as? any GraphTypeLabelled)?.graphTypeLabel ?? "\(type(of: node))"
}

private func typeLabel(of edge: any GraphEdge) -> String {
    "\(type(of: edge))"
}

private func escapeDOT(_ text: String) -> String {
    var escaped = ""
    for character in text {
        if character == "\\" || character == "\"" { escaped.append("\\") }
        escaped.append(character)
    }
    return escaped
}

private func escapeMermaid(_ text: String) -> String {
    var escaped = ""
    for character in text {
        if character == "\"" { escaped += "#quot;" } else { escaped.append(character) }
    }
    return escaped
}
