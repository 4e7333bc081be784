// `graph(format: .text)`: a plain-text picture of a live graph, by rank.
//
// Invariants: every node and every transform of the snapshot appears exactly once (a node in one box, a transform in
// one line under its source's row); the ranks are a longest-path layering of the graph with the edges that close a
// cycle set aside, so every other transform points to a lower row, and the walk is iterative (a 100,000-deep chain
// draws without deep recursion). Equal inputs give equal text: every order is `traverse(_:)` order or link order.

extension GraphSnapshot {
    /// The rows of boxes and the transform lines under them (see ``GraphNode/graph(format:)``).
    func diagram() -> String {
        guard !labels.isEmpty else { return "" }
        let names = uniqueNames()
        let (rank, closesCycle) = ranks()
        let rowCount = (rank.max() ?? 0) + 1
        var rows = [[Int]](repeating: [], count: rowCount)
        for node in labels.indices { rows[rank[node]].append(node) }
        var leaving = [[Int]](repeating: [], count: labels.count)
        for (index, edge) in edges.enumerated() { leaving[edge.from].append(index) }

        var lines: [String] = []
        for (row, members) in rows.enumerated() {
            lines += boxes(members.map { names[$0] })
            for node in members {
                for index in leaving[node] {
                    let edge = edges[index]
                    var line = "  \(names[edge.from]) --\(edge.label)--> \(names[edge.to])"
                    if closesCycle[index] {
                        line += "  (up to rank \(rank[edge.to]), closing a cycle)"
                    } else if rank[edge.to] != row + 1 {
                        line += "  (rank \(rank[edge.to]))"
                    }
                    lines.append(line)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The labels, with " #n" added to every node whose label another node shares, so each box is one node.
    private func uniqueNames() -> [String] {
        var counts: [String: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        return labels.enumerated().map { index, label in
            counts[label, default: 0] > 1 && !label.hasSuffix(" #\(index)") ? "\(label) #\(index)" : label
        }
    }

    /// Each node's rank, and for each edge whether it closes a cycle (a back edge of a depth-first walk that starts
    /// at the nodes nobody pushes into, then at any node left, in `traverse(_:)` order).
    private func ranks() -> (rank: [Int], closesCycle: [Bool]) {
        var outgoing = [[Int]](repeating: [], count: labels.count)
        var hasUpstream = [Bool](repeating: false, count: labels.count)
        for (index, edge) in edges.enumerated() {
            outgoing[edge.from].append(index)
            if edge.from != edge.to { hasUpstream[edge.to] = true }
        }
        enum Mark { case unseen, onPath, done }
        var mark = [Mark](repeating: .unseen, count: labels.count)
        var closesCycle = [Bool](repeating: false, count: edges.count)
        var finished: [Int] = []  // post-order; reversed, a topological order of the edges that do not close a cycle
        let roots = labels.indices.filter { !hasUpstream[$0] } + labels.indices.filter { hasUpstream[$0] }
        for root in roots where mark[root] == .unseen {
            // (node, next outgoing edge to look at)
            var path: [(node: Int, next: Int)] = [(root, 0)]
            mark[root] = .onPath
            while let top = path.last {
                if top.next == outgoing[top.node].count {
                    path.removeLast()
                    mark[top.node] = .done
                    finished.append(top.node)
                    continue
                }
                path[path.count - 1].next += 1
                let edgeIndex = outgoing[top.node][top.next]
                let target = edges[edgeIndex].to
                switch mark[target] {
                case .onPath:
                    closesCycle[edgeIndex] = true
                case .unseen:
                    mark[target] = .onPath
                    path.append((target, 0))
                case .done:
                    break
                }
            }
        }
        var rank = [Int](repeating: 0, count: labels.count)
        for node in finished.reversed() {
            for edgeIndex in outgoing[node] where !closesCycle[edgeIndex] {
                let target = edges[edgeIndex].to
                rank[target] = max(rank[target], rank[node] + 1)
            }
        }
        return (rank, closesCycle)
    }

    /// One row of boxes, side by side: three lines.
    private func boxes(_ names: [String]) -> [String] {
        var top: [String] = []
        var middle: [String] = []
        for name in names {
            let rule = "+" + String(repeating: "-", count: name.count + 2) + "+"
            top.append(rule)
            middle.append("| \(name) |")
        }
        let border = top.joined(separator: "  ")
        return [border, middle.joined(separator: "  "), border]
    }
}
