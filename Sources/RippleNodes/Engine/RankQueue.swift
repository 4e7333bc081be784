// The rank queue: nodes with several upstreams wait here until nothing of lower rank is pending.
//
// Invariants:
// - A binary min-heap on (rank, order) over `entries[base...]`: each open frame owns the entries above the base it
//   opened with, so a nested frame's heap sits on top of the frame it interrupted and is empty again when it closes.
// - `order` grows with every insertion, so nodes of equal rank settle in the order they were reached.
// - A node is in the queue at most once per frame (its mark says it is pending, see `CycleRule.swift`).
// - Entries are inserted at any rank, even below the last one popped: a back edge of a ring wakes a lower-rank
//   node, which then simply settles next.

@usableFromInline
struct RankQueue {
    @usableFromInline var entries: [PendingEntry] = []

    @usableFromInline
    init() {}

    @inlinable
    var count: Int { entries.count }

    @inlinable @inline(__always)
    static func precedes(_ a: PendingEntry, _ b: PendingEntry) -> Bool {
        a.rank < b.rank || (a.rank == b.rank && a.order < b.order)
    }

    @usableFromInline
    mutating func insert(_ entry: PendingEntry, base: Int) {
        entries.append(entry)
        var child = entries.count - 1 - base
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[base + child], entries[base + parent]) else { break }
            entries.swapAt(base + child, base + parent)
            child = parent
        }
    }

    @usableFromInline
    mutating func popMin(base: Int) -> PendingEntry {
        let last = entries.count - 1
        // The frame's only entry (a diamond's sink, a `combine` of one changed source): no swap, no sift.
        if last == base { return entries.removeLast() }
        entries.swapAt(base, last)
        let minimum = entries.removeLast()
        let count = entries.count - base
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            let right = left + 1
            var smallest = left
            if right < count && Self.precedes(entries[base + right], entries[base + left]) { smallest = right }
            guard Self.precedes(entries[base + smallest], entries[base + parent]) else { break }
            entries.swapAt(base + smallest, base + parent)
            parent = smallest
        }
        return minimum
    }
}
