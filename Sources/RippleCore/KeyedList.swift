/// Elements in the order they were appended, each removable by the key its append returned, in O(log n) amortised:
/// the subscriber lists that deliver in subscription order and lose members one by one, and the lifecycle actions'
/// registration-ordered lists.
///
/// Invariants:
/// - `keys` is ascending (keys are handed out in increasing order and only ever appended), and `keys[i]` is the key
///   of `slots[i]`.
/// - A removed element leaves nil in `slots` (its key stays in `keys`, so the search still finds neighbours); `gaps`
///   counts those nils, and they are squeezed out once they are more than half of `slots`.
/// - `cached`, when set, is the members in order: a list sent to on every event hands out the same array until it
///   changes, as a plain array did, rather than building one per event.
///
/// Why: each of these lists removed a member with `removeAll(where:)`, a pass over every member. In generic code that
/// pass runs unspecialised, copying each element through its type's value witnesses: cancelling 4,000 subscribers
/// of one `share()` one by one took 0.67 s in release (n²).
package struct KeyedList<Element> {
    /// A member's key, for ``remove(_:)``.
    package struct Key: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private var slots: [Element?] = []
    private var keys: [UInt64] = []
    private var nextKey: UInt64 = 0
    private var gaps = 0
    private var cached: [Element]? = []

    package init() {}

    /// How many members there are.
    package var count: Int {
        slots.count - gaps
    }

    package var isEmpty: Bool {
        count == 0
    }

    /// The members, in append order.
    package var elements: [Element] {
        mutating get {
            if let cached { return cached }
            let members = gaps == 0 ? slots.map { $0! } : slots.compactMap { $0 }
            cached = members
            return members
        }
    }

    /// Appends `element`; returns the key that removes it.
    package mutating func append(_ element: Element) -> Key {
        let key = nextKey
        nextKey += 1
        slots.append(element)
        keys.append(key)
        cached = nil
        return Key(value: key)
    }

    /// Removes the member `key` names and returns it; nil when it was removed already.
    @discardableResult
    package mutating func remove(_ key: Key) -> Element? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key.value { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key.value, let element = slots[low] else { return nil }
        slots[low] = nil
        gaps += 1
        cached = nil
        if gaps > slots.count / 2 { compact() }
        return element
    }

    /// Removes every member and returns them, in append order.
    package mutating func removeAll() -> [Element] {
        let all = elements
        self = KeyedList(nextKey: nextKey)
        return all
    }

    private init(nextKey: UInt64) {
        self.nextKey = nextKey
    }

    private mutating func compact() {
        var kept = 0
        for index in slots.indices where slots[index] != nil {
            slots.swapAt(kept, index)
            keys[kept] = keys[index]
            kept += 1
        }
        slots.removeLast(slots.count - kept)
        keys.removeLast(keys.count - kept)
        gaps = 0
    }
}

extension KeyedList: Sendable where Element: Sendable {}
