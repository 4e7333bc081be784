/// A node's upstream transforms, in link order. Almost every node has exactly one (the transform of the operator
/// that made it), so the first is stored inline and only the rest in an array: an array would cost every node an
/// allocation.
struct UpstreamEdges {
    /// Nil only when there are none: `rest` is empty then.
    private var first: (any UpstreamEdge)?
    private var rest: [any UpstreamEdge] = []

    var all: [any UpstreamEdge] {
        guard let first else { return [] }
        return [first] + rest
    }

    mutating func append(_ edge: any UpstreamEdge) {
        if first == nil {
            first = edge
        } else {
            rest.append(edge)
        }
    }

    /// Removes every edge that is `id` and returns them, so that their last release can happen outside the lock.
    mutating func remove(_ id: ObjectIdentifier) -> [any UpstreamEdge] {
        let edges = all
        let removed = edges.filter { ObjectIdentifier($0) == id }
        if removed.isEmpty { return [] }
        let remaining = edges.filter { ObjectIdentifier($0) != id }
        first = remaining.first
        rest = Array(remaining.dropFirst())
        return removed
    }

    /// Calls `body` with each edge in link order.
    func forEach(_ body: (any UpstreamEdge) -> Void) {
        guard let first else { return }
        body(first)
        for edge in rest { body(edge) }
    }
}
