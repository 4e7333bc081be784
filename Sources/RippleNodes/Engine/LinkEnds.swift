// The nodes one link or unlink touches, whose domains it holds (see `Domain.swift`): both ends of the transform and
// the node whose downstream list holds it now.
//
// Invariants:
// - At most three members, in the order they were added; the first is nil only when there is none.
// - Kept inline, not in an array: an `[any DomainMember]` per link cost an allocation and an unspecialised array
//   destroy (callgrind: ~690 instructions per relink, five per update of FlatMapLatestPumping).

/// Up to three nodes whose domains a link holds.
struct LinkEnds {
    private(set) var first: (any DomainMember)?
    private(set) var second: (any DomainMember)?
    private(set) var third: (any DomainMember)?

    init() {}

    init(_ first: any DomainMember, _ second: any DomainMember) {
        self.first = first
        self.second = second
    }

    var isEmpty: Bool { first == nil }

    mutating func append(_ member: any DomainMember) {
        if first == nil {
            first = member
        } else if second == nil {
            second = member
        } else {
            precondition(third == nil, "LinkEnds holds at most three nodes")
            third = member
        }
    }

    /// Whether `predicate` holds for every member, asked in order until one fails.
    func allSatisfy(_ predicate: (any DomainMember) -> Bool) -> Bool {
        // Passed straight from the borrowed struct: `if let` bound a copy, a retain and a release of a node, which
        // has a side table (the slots' weak references), so both took the slow path (~70 instructions a member).
        if first != nil, !predicate(first.unsafelyUnwrapped) { return false }
        if second != nil, !predicate(second.unsafelyUnwrapped) { return false }
        if third != nil, !predicate(third.unsafelyUnwrapped) { return false }
        return true
    }
}
