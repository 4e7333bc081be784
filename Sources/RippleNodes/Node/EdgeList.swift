/// How many of an ``EdgeList``'s elements are listeners (they come first) and how many downstream slots.
@usableFromInline
struct EdgeCounts {
    @usableFromInline let listeners: Int
    @usableFromInline let downstream: Int

    init(listeners: Int, downstream: Int) {
        self.listeners = listeners
        self.downstream = downstream
    }
}

/// A node's listeners (`ListenEdge<Value>`) and downstream slots (`DownstreamSlot<Value>`) as one immutable object:
/// propagation takes it under the node lock with a single retain, and every change replaces it under that lock.
///
/// One allocation, the references stored inline after the counts. They are kept as retained `Unmanaged` values, so
/// propagation reads them without a retain each while it holds the list. Not generic, so building one needs no
/// generic metadata, and every node without edges shares ``empty``.
@usableFromInline
final class EdgeList: ManagedBuffer<EdgeCounts, Unmanaged<AnyObject>> {
    /// The list of every node without listeners or downstream transforms. `nonisolated(unsafe)`: a built list is
    /// never mutated, and its elements are themselves thread-safe.
    @usableFromInline nonisolated(unsafe) static let empty = allocate(listeners: 0, downstream: 0) { _ in }

    deinit {
        withUnsafeMutablePointers { counts, elements in
            for index in 0..<(counts.pointee.listeners + counts.pointee.downstream) {
                elements[index].release()
            }
        }
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

    var listeners: UnsafeBufferPointer<Unmanaged<AnyObject>> {
        UnsafeBufferPointer(start: elements, count: listenerCount)
    }

    var downstream: UnsafeBufferPointer<Unmanaged<AnyObject>> {
        UnsafeBufferPointer(start: elements + listenerCount, count: downstreamCount)
    }

    /// A new list; `fill` initialises exactly `listeners + downstream` retained elements.
    private static func build(listeners: Int, downstream: Int,
                              _ fill: (UnsafeMutablePointer<Unmanaged<AnyObject>>) -> Void) -> EdgeList {
        // A node whose last edge goes away shares `empty` again rather than allocating.
        if listeners + downstream == 0 { return empty }
        return allocate(listeners: listeners, downstream: downstream, fill)
    }

    private static func allocate(listeners: Int, downstream: Int,
                                 _ fill: (UnsafeMutablePointer<Unmanaged<AnyObject>>) -> Void) -> EdgeList {
        let list = unsafeDowncast(
            create(minimumCapacity: listeners + downstream) { _ in
                EdgeCounts(listeners: listeners, downstream: downstream)
            },
            to: EdgeList.self)
        list.withUnsafeMutablePointerToElements(fill)
        return list
    }

    /// A list of `first` then `second`, of which the first `listeners` are listeners: what a node's lone edge and
    /// a new one become (see `NodeEdges`).
    static func pair(_ first: AnyObject, _ second: AnyObject, listeners: Int) -> EdgeList {
        build(listeners: listeners, downstream: 2 - listeners) { new in
            new[0] = .passRetained(first)
            new[1] = .passRetained(second)
        }
    }

    /// This list with `listener` appended to the listeners.
    func addingListener(_ listener: AnyObject) -> EdgeList {
        let (listeners, downstream) = (listenerCount, downstreamCount)
        let old = elements
        return EdgeList.build(listeners: listeners + 1, downstream: downstream) { new in
            for index in 0..<listeners { new[index] = old[index].retain() }
            new[listeners] = .passRetained(listener)
            for index in 0..<downstream { new[listeners + 1 + index] = old[listeners + index].retain() }
        }
    }

    /// This list with `slot` appended to the downstream slots.
    func addingDownstream(_ slot: AnyObject) -> EdgeList {
        let count = listenerCount + downstreamCount
        let old = elements
        return EdgeList.build(listeners: listenerCount, downstream: downstreamCount + 1) { new in
            for index in 0..<count { new[index] = old[index].retain() }
            new[count] = .passRetained(slot)
        }
    }

    /// This list without the listener `listener`.
    func removingListener(_ listener: AnyObject) -> EdgeList {
        removing(fromListeners: true) { $0 === listener }
    }

    /// This list without the downstream slots `isRemoved` picks.
    func removingDownstream(where isRemoved: (AnyObject) -> Bool) -> EdgeList {
        removing(fromListeners: false, where: isRemoved)
    }

    private func removing(fromListeners: Bool, where isRemoved: (AnyObject) -> Bool) -> EdgeList {
        let old = elements
        let range = fromListeners ? 0..<listenerCount : listenerCount..<(listenerCount + downstreamCount)
        var removed = 0
        for index in range where isRemoved(old[index].takeUnretainedValue()) { removed += 1 }
        if removed == 0 { return self }
        let total = listenerCount + downstreamCount
        return EdgeList.build(listeners: listenerCount - (fromListeners ? removed : 0),
                              downstream: downstreamCount - (fromListeners ? 0 : removed)) { new in
            var count = 0
            for index in 0..<total where !(range.contains(index) && isRemoved(old[index].takeUnretainedValue())) {
                new[count] = old[index].retain()
                count += 1
            }
        }
    }

    /// Whether `slot` is one of the downstream slots.
    @usableFromInline
    func containsDownstream(_ slot: AnyObject) -> Bool {
        downstream.contains { $0.toOpaque() == Unmanaged.passUnretained(slot).toOpaque() }
    }
}
