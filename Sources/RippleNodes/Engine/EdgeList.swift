/// How many of an ``EdgeList``'s elements are listeners (they come first, tombstones included) and how many
/// downstream slots; how many it has room for; how many places of each are tombstones.
@usableFromInline
struct EdgeCounts {
    @usableFromInline var listeners: Int
    @usableFromInline var downstream: Int
    let capacity: Int
    var deadListeners = 0
    var deadDownstream = 0
    /// How many queued calls of several listeners read the list (see ``EdgeList/addQueuedReader()``). Changed and
    /// read holding the domain.
    @usableFromInline var queuedReaders = 0
    /// Whether some listener of the list reads sender lists (`ListenEdge.wantsSenders`), so that a call of several
    /// listeners must keep the transaction's sender list: kept by the node (`Node.renumberEdges()`), which knows the
    /// listeners' type. It may stay true after that listener leaves.
    @usableFromInline var someListenerWantsSenders = false

    init(listeners: Int, downstream: Int, capacity: Int) {
        self.listeners = listeners
        self.downstream = downstream
        self.capacity = capacity
    }
}

// The edge store: a node's listeners (`ListenEdge<Value>`) and downstream entries (`DownstreamSlot<Value>`).
//
// Invariants:
// - One allocation, the entries stored inline after the counts, as `Unmanaged` values (retained):
//   propagation reads them without a retain each while it holds the list. Listeners first, in registration
//   order, then the downstream entries, in link order. Not generic, so building one needs no generic metadata; every
//   node without edges shares `empty`.
// - A list some propagation is reading (see `EdgeSnapshot.swift`), or that a queued listener call reads (see
//   ``addQueuedReader()``), is never mutated: a change builds a new list and the old one is retired. With no reader
//   (the common case: attaching or cancelling outside a propagation), the list is changed in place: an append uses
//   spare capacity (doubled when full, so attaching is O(1) amortised), and a cancelled listener's or unlinked
//   slot's place becomes a *tombstone* (the list's own address, not retained) found through the edge's `listIndex`,
//   so cancelling is O(1); the tombstones are squeezed out once they are more than half of the places. Readers skip
//   tombstones.
@usableFromInline
final class EdgeList: ManagedBuffer<EdgeCounts, Unmanaged<AnyObject>> {
    /// The list of every node without listeners or downstream transforms. `nonisolated(unsafe)`: a built list is
    /// never mutated, and its elements are themselves thread-safe.
    @usableFromInline nonisolated(unsafe) static let empty = allocate(listeners: 0, downstream: 0, capacity: 0) { _ in }

    deinit {
        let tombstone = self.tombstone
        withUnsafeMutablePointers { counts, elements in
            for index in 0..<(counts.pointee.listeners + counts.pointee.downstream)
            where elements[index].toOpaque() != tombstone {
                elements[index].release()
            }
        }
    }

    /// What a cancelled listener's place holds: this list's own address.
    @inlinable
    var tombstone: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// Counts in a queued call of several listeners, which reads the list after the transaction, outside the domain:
    /// until it is counted out, every change replaces the list rather than editing it in place, so the call reads the
    /// listeners and tombstones of the moment it was queued, with nothing but its retain of the list (a retain and a
    /// release of every listener instead cost FanOut1000 ~55 instructions a listener). The call is counted out by
    /// the thread that ran it, under the domain, when it takes the domain to end its batch
    /// (`PropagationState.drainDeliveries`): no atomic operation. Call holding the domain.
    @inlinable
    func addQueuedReader() {
        withUnsafeMutablePointerToHeader { $0.pointee.queuedReaders += 1 }
    }

    /// Counts out a queued call that has run. Call holding the domain.
    func removeQueuedReader() {
        withUnsafeMutablePointerToHeader {
            #if RIPPLE_INTERNAL_CHECKS
            precondition($0.pointee.queuedReaders > 0, "invariant: an edge list counted out more often than in")
            #endif
            $0.pointee.queuedReaders -= 1
        }
    }

    /// Whether a queued call reads the list. Call holding the domain.
    var hasQueuedReaders: Bool {
        queuedReaderCount > 0
    }

    /// How many queued calls read the list. Call holding the domain.
    var queuedReaderCount: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.queuedReaders }
    }

    /// See ``EdgeCounts/someListenerWantsSenders``. Call holding the domain.
    @inlinable
    var someListenerWantsSenders: Bool {
        get { withUnsafeMutablePointerToHeader { $0.pointee.someListenerWantsSenders } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.someListenerWantsSenders = newValue } }
    }

    /// How many listeners are attached (tombstones excluded).
    var liveListenerCount: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.listeners - $0.pointee.deadListeners }
    }

    /// How many slots are linked (tombstones excluded).
    var liveDownstreamCount: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.downstream - $0.pointee.deadDownstream }
    }

    // Read through the pointer: `header` is a class stored property, with a dynamic exclusivity check per access.
    @inlinable
    var listenerCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.listeners } }

    @inlinable
    var downstreamCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.downstream } }

    /// The listeners, then the downstream slots. Valid while this list is alive (the elements live inline).
    @inlinable
    var elements: UnsafeMutablePointer<Unmanaged<AnyObject>> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The listeners, tombstones skipped.
    var listeners: [Unmanaged<AnyObject>] {
        let tombstone = self.tombstone
        return UnsafeBufferPointer(start: elements, count: listenerCount).filter { $0.toOpaque() != tombstone }
    }

    /// The downstream entries, tombstones skipped.
    var downstream: [Unmanaged<AnyObject>] {
        let tombstone = self.tombstone
        return UnsafeBufferPointer(start: elements + listenerCount, count: downstreamCount)
            .filter { $0.toOpaque() != tombstone }
    }

    /// A new list; `fill` initialises exactly `listeners + downstream` retained elements.
    private static func build(listeners: Int, downstream: Int,
                              _ fill: (UnsafeMutablePointer<Unmanaged<AnyObject>>) -> Void) -> EdgeList {
        // A node whose last edge goes away shares `empty` again rather than allocating.
        if listeners + downstream == 0 { return empty }
        // Room to grow: the next appends happen in place.
        return allocate(listeners: listeners, downstream: downstream,
                        capacity: max(4, 2 * (listeners + downstream)), fill)
    }

    private static func allocate(listeners: Int, downstream: Int, capacity: Int,
                                 _ fill: (UnsafeMutablePointer<Unmanaged<AnyObject>>) -> Void) -> EdgeList {
        let list = unsafeDowncast(
            create(minimumCapacity: capacity) { _ in
                EdgeCounts(listeners: listeners, downstream: downstream, capacity: capacity)
            },
            to: EdgeList.self)
        list.withUnsafeMutablePointerToElements(fill)
        return list
    }

    /// A list of `first` then `second`, of which the first `listeners` are listeners: what a node's lone edge and
    /// a new one become (see `NodeEdges`).
    static func pair(_ first: Unmanaged<AnyObject>, _ second: Unmanaged<AnyObject>, listeners: Int) -> EdgeList {
        build(listeners: listeners, downstream: 2 - listeners) { new in
            new[0] = first.retain()
            new[1] = second.retain()
        }
    }

    /// Copies the live listeners `isRemoved` keeps, then `listener` if any, then the downstream entries `isRemoved`
    /// keeps, then `entry` if any, into `new`.
    private func copyLive(into new: UnsafeMutablePointer<Unmanaged<AnyObject>>, addingListener listener: AnyObject?,
                          addingDownstream entry: Unmanaged<AnyObject>?,
                          skipping isRemoved: (_ entry: Unmanaged<AnyObject>, _ isListener: Bool) -> Bool
                            = { _, _ in false }) {
        let old = elements
        let tombstone = self.tombstone
        var count = 0
        for index in 0..<listenerCount where old[index].toOpaque() != tombstone && !isRemoved(old[index], true) {
            new[count] = old[index].retain()
            count += 1
        }
        if let listener {
            new[count] = .passRetained(listener)
            count += 1
        }
        for index in listenerCount..<(listenerCount + downstreamCount)
        where old[index].toOpaque() != tombstone && !isRemoved(old[index], false) {
            new[count] = old[index].retain()
            count += 1
        }
        if let entry { new[count] = entry.retain() }
    }

    /// This list with `listener` appended to the listeners.
    func addingListener(_ listener: AnyObject) -> EdgeList {
        EdgeList.build(listeners: liveListenerCount + 1, downstream: liveDownstreamCount) { new in
            copyLive(into: new, addingListener: listener, addingDownstream: nil)
        }
    }

    /// This list with `entry` appended to the downstream entries.
    func addingDownstream(_ entry: Unmanaged<AnyObject>) -> EdgeList {
        EdgeList.build(listeners: liveListenerCount, downstream: liveDownstreamCount + 1) { new in
            copyLive(into: new, addingListener: nil, addingDownstream: entry)
        }
    }

    /// This list without the listener `listener`.
    func removingListener(_ listener: AnyObject) -> EdgeList {
        let tombstone = self.tombstone
        let found = UnsafeBufferPointer(start: elements, count: listenerCount).contains {
            $0.toOpaque() != tombstone && $0.takeUnretainedValue() === listener
        }
        if !found { return self }
        let address = Unmanaged.passUnretained(listener).toOpaque()
        return EdgeList.build(listeners: liveListenerCount - 1, downstream: liveDownstreamCount) { new in
            copyLive(into: new, addingListener: nil, addingDownstream: nil) { entry, isListener in
                isListener && entry.toOpaque() == address
            }
        }
    }

    /// This list without the downstream entries `isRemoved` picks.
    func removingDownstream(where isRemoved: (Unmanaged<AnyObject>) -> Bool) -> EdgeList {
        let removed = downstream.reduce(0) { $0 + (isRemoved($1) ? 1 : 0) }
        if removed == 0 { return self }
        return EdgeList.build(listeners: liveListenerCount, downstream: liveDownstreamCount - removed) { new in
            copyLive(into: new, addingListener: nil, addingDownstream: nil) { entry, isListener in
                !isListener && isRemoved(entry)
            }
        }
    }

    // In place: call under the node lock, with no propagation reading this list.

    /// Appends `listener` in place and returns its index, or nil when the list is full. `renumber` gets each
    /// downstream entry moved up to make room, with its new index.
    func appendListenerInPlace(_ listener: AnyObject, renumber: (Unmanaged<AnyObject>, Int) -> Void) -> Int? {
        let tombstone = self.tombstone
        return withUnsafeMutablePointers { counts, elements in
            let (listeners, downstream) = (counts.pointee.listeners, counts.pointee.downstream)
            guard listeners + downstream < counts.pointee.capacity else { return nil }
            // The slots move up one place to make room (a node with listeners seldom has many slots).
            var index = listeners + downstream
            while index > listeners {
                elements[index] = elements[index - 1]
                if elements[index].toOpaque() != tombstone { renumber(elements[index], index) }
                index -= 1
            }
            elements[listeners] = .passRetained(listener)
            counts.pointee.listeners += 1
            return listeners
        }
    }

    /// Appends `entry` in place and returns its index, or nil when the list is full.
    func appendDownstreamInPlace(_ entry: Unmanaged<AnyObject>) -> Int? {
        withUnsafeMutablePointers { counts, elements in
            let end = counts.pointee.listeners + counts.pointee.downstream
            guard end < counts.pointee.capacity else { return nil }
            elements[end] = entry.retain()
            counts.pointee.downstream += 1
            return end
        }
    }

    /// Turns the entry at `index` (a listener, or a downstream entry) into a tombstone and returns it with the
    /// count the list held (the caller drops it after unlocking), or returns nil when `entry` is not there.
    func tombstone(_ entry: Unmanaged<AnyObject>, at index: Int, isListener: Bool) -> Unmanaged<AnyObject>? {
        let tombstone = Unmanaged<AnyObject>.fromOpaque(self.tombstone)
        return withUnsafeMutablePointers { counts, elements in
            let (listeners, downstream) = (counts.pointee.listeners, counts.pointee.downstream)
            let range = isListener ? 0..<listeners : listeners..<(listeners + downstream)
            guard range.contains(index), elements[index].toOpaque() == entry.toOpaque() else { return nil }
            let removed = elements[index]
            elements[index] = tombstone
            if isListener { counts.pointee.deadListeners += 1 } else { counts.pointee.deadDownstream += 1 }
            return removed
        }
    }

    /// Whether tombstones are more than half of the places.
    var needsCompaction: Bool {
        withUnsafeMutablePointerToHeader {
            2 * ($0.pointee.deadListeners + $0.pointee.deadDownstream) > $0.pointee.listeners + $0.pointee.downstream
        }
    }

    /// Squeezes the tombstones out, keeping the order; `renumber` gets each entry's new index and whether it is a
    /// listener.
    func compactInPlace(renumber: (_ entry: Unmanaged<AnyObject>, _ index: Int, _ isListener: Bool) -> Void) {
        let tombstone = self.tombstone
        withUnsafeMutablePointers { counts, elements in
            let liveListeners = counts.pointee.listeners - counts.pointee.deadListeners
            var count = 0
            for index in 0..<(counts.pointee.listeners + counts.pointee.downstream)
            where elements[index].toOpaque() != tombstone {
                elements[count] = elements[index]
                renumber(elements[count], count, count < liveListeners)
                count += 1
            }
            counts.pointee.listeners = liveListeners
            counts.pointee.downstream -= counts.pointee.deadDownstream
            counts.pointee.deadListeners = 0
            counts.pointee.deadDownstream = 0
        }
    }

    /// Whether `entry` is one of the downstream entries.
    @usableFromInline
    func containsDownstream(_ entry: Unmanaged<AnyObject>) -> Bool {
        downstream.contains { $0.toOpaque() == entry.toOpaque() }
    }
}
