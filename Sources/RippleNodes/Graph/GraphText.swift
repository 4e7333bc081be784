/// The text formats ``GraphNode/graph(format:)`` can write.
public enum GraphFormat: Sendable {
    /// Graphviz DOT: `circo -Tpdf graph.dot -o graph.pdf`.
    case dot
    /// Mermaid flowchart text, which GitHub renders in Markdown.
    case mermaid
}

extension GraphNode {
    /// Text describing every node and transform reachable from this node, labelled with their names ("undefined"
    /// when unnamed). Nodes are numbered in ``traverse(_:)`` order and edges listed in the order they are found, so
    /// the same graph always gives the same text.
    public func graph(format: GraphFormat = .dot) -> String {
        var nodes: [any GraphNode] = []
        traverse { node in
            nodes.append(node)
            return .proceed
        }
        var numbers: [ObjectIdentifier: Int] = [:]
        for (index, node) in nodes.enumerated() { numbers[ObjectIdentifier(node)] = index }
        var edges: [(from: Int, to: Int, label: String)] = []
        var seenEdges = Set<ObjectIdentifier>()
        for node in nodes {
            for edge in node.upstreamTransforms + node.downstreamTransforms
            where seenEdges.insert(ObjectIdentifier(edge)).inserted {
                guard let from = edge.fromNode, let to = edge.toNode,
                      let fromNumber = numbers[ObjectIdentifier(from)], let toNumber = numbers[ObjectIdentifier(to)]
                else { continue }
                edges.append((fromNumber, toNumber, edge.name ?? "undefined"))
            }
        }
        var lines: [String] = []
        switch format {
        case .dot:
            lines.append("digraph G {")
            lines.append("  node [shape=box];")
            for (index, node) in nodes.enumerated() {
                let listened = node.hasListener ? ", style=bold" : ""
                lines.append("  n\(index) [label=\"\(escapeDOT(node.name ?? "undefined"))\"\(listened)];")
            }
            for edge in edges {
                lines.append("  n\(edge.from) -> n\(edge.to) [label=\"\(escapeDOT(edge.label))\"];")
            }
            lines.append("}")
        case .mermaid:
            lines.append("flowchart TD")
            for (index, node) in nodes.enumerated() {
                lines.append("  n\(index)[\"\(escapeMermaid(node.name ?? "undefined"))\"]")
            }
            for edge in edges {
                lines.append("  n\(edge.from) -->|\"\(escapeMermaid(edge.label))\"| n\(edge.to)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
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
