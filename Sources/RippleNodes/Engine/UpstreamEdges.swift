/// A node's upstream transforms, in link order. Almost every node has exactly one (the transform of the operator
/// that made it), so the first is stored inline and only the rest in an array: an array would cost every node an
/// allocation.
@usableFromInline
struct UpstreamEdges {
    /// Nil only when there are none: `rest` is empty then.
    private var first: (any UpstreamEdge)?
    private var rest: [any UpstreamEdge] = []

    @usableFromInline
    init() {}

    var isEmpty: Bool {
        first == nil
    }

    var hasSeveral: Bool {
        !rest.isEmpty
    }

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
    /// Allocates nothing for the usual removal of one edge: relinking a `flatten` follower does this per value.
    mutating func remove(_ id: ObjectIdentifier) -> UpstreamEdges {
        var removed = UpstreamEdges()
        guard let current = first else { return removed }
        if !rest.isEmpty {
            rest.removeAll { edge in
                guard ObjectIdentifier(edge) == id else { return false }
                removed.append(edge)
                return true
            }
        }
        if ObjectIdentifier(current) == id {
            removed.append(current)
            first = rest.isEmpty ? nil : rest.removeFirst()
        }
        return removed
    }

    /// Calls `body` with each edge in link order.
    func forEach(_ body: (any UpstreamEdge) -> Void) {
        guard let first else { return }
        body(first)
        for edge in rest { body(edge) }
    }
}
