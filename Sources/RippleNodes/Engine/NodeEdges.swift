/// A node's listeners and downstream slots: an ``EdgeList``, or, for the most common shapes, the one element on its
/// own: a lone listener (a listened source node), a lone downstream slot (a node inside a chain of operators), or
/// nothing at all. The lone shapes save the list's allocation, one per node of a chain.
///
/// Immutable, like the list: every change builds a new value, installed under the node lock.
@usableFromInline
struct NodeEdges {
    @usableFromInline
    enum Shape: UInt8 {
        /// `object` is an ``EdgeList``.
        case list
        /// `object` is the node's only edge, a `ListenEdge<Value>`.
        case loneListener
        /// `object` is the node's only edge, a `DownstreamSlot<Value>`.
        case loneDownstream
        /// No edges; `object` is nil.
        case none
    }

    /// What the edges hold a counted reference to: the list, or the lone listener or slot.
    @usableFromInline let object: AnyObject?
    /// What propagation reads (see `EdgeSnapshot.swift`): `object`, unretained; a placeholder never read for `.none`.
    /// One field for every shape, so that taking a snapshot does not branch. Declared between the other two, so
    /// that the shape packs after it.
    @usableFromInline let entry: Unmanaged<AnyObject>
    @usableFromInline let shape: Shape

    @usableFromInline
    init(object: AnyObject, shape: Shape) {
        self.object = object
        self.shape = shape
        entry = .passUnretained(object)
    }

    @usableFromInline
    init() {
        object = nil
        // Never read (no edge to read), but an `Unmanaged` cannot be null.
        entry = .fromOpaque(UnsafeRawPointer(bitPattern: 8).unsafelyUnwrapped)
        shape = .none
    }

    /// `list`, or no edges for the shared empty list.
    init(_ list: EdgeList) {
        if list === EdgeList.empty {
            self.init()
        } else {
            self.init(object: list, shape: .list)
        }
    }

    @inlinable
    static var empty: NodeEdges { NodeEdges() }

    /// The list (`.list` only).
    private var listObject: EdgeList {
        unsafeDowncast(object.unsafelyUnwrapped, to: EdgeList.self)
    }

    private var list: EdgeList? {
        shape == .list ? listObject : nil
    }

    /// Whether there are no edges at all (tombstones in a list count as edges here).
    var isNone: Bool {
        shape == .none
    }

    private var isEmpty: Bool {
        guard let list else { return false }
        return list.liveListenerCount + list.liveDownstreamCount == 0
    }

    /// The list, when the edges are one (see ``EdgeList`` for what may change in place).
    var editableList: EdgeList? {
        list
    }

    var downstreamIsEmpty: Bool {
        switch shape {
        case .list: listObject.liveDownstreamCount == 0
        case .loneListener, .none: true
        case .loneDownstream: false
        }
    }

    var listenerCount: Int {
        switch shape {
        case .list: listObject.liveListenerCount
        case .loneListener: 1
        case .loneDownstream, .none: 0
        }
    }

    /// The downstream slots, in link order. Read them under the node's lock.
    var downstream: [Unmanaged<AnyObject>] {
        switch shape {
        case .list: listObject.downstream
        case .loneListener, .none: []
        case .loneDownstream: [entry]
        }
    }

    @usableFromInline
    func addingListener(_ listener: AnyObject) -> NodeEdges {
        switch shape {
        case .list:
            isEmpty ? NodeEdges(object: listener, shape: .loneListener)
                : NodeEdges(listObject.addingListener(listener))
        case .loneListener: NodeEdges(EdgeList.pair(entry, .passUnretained(listener), listeners: 2))
        case .loneDownstream: NodeEdges(EdgeList.pair(.passUnretained(listener), entry, listeners: 1))
        case .none: NodeEdges(object: listener, shape: .loneListener)
        }
    }

    func addingDownstream(_ entry: Unmanaged<AnyObject>) -> NodeEdges {
        switch shape {
        case .list:
            isEmpty ? NodeEdges.lone(entry) : NodeEdges(listObject.addingDownstream(entry))
        case .loneListener: NodeEdges(EdgeList.pair(self.entry, entry, listeners: 1))
        case .loneDownstream: NodeEdges(EdgeList.pair(self.entry, entry, listeners: 0))
        case .none: NodeEdges.lone(entry)
        }
    }

    /// A lone downstream slot.
    private static func lone(_ entry: Unmanaged<AnyObject>) -> NodeEdges {
        NodeEdges(object: entry.takeUnretainedValue(), shape: .loneDownstream)
    }

    func removingListener(_ listener: AnyObject) -> NodeEdges {
        switch shape {
        case .list: NodeEdges(listObject.removingListener(listener))
        case .loneListener: object === listener ? .empty : self
        case .loneDownstream, .none: self
        }
    }

    func removingDownstream(where isRemoved: (Unmanaged<AnyObject>) -> Bool) -> NodeEdges {
        switch shape {
        case .list: NodeEdges(listObject.removingDownstream(where: isRemoved))
        case .loneListener, .none: self
        case .loneDownstream: isRemoved(self.entry) ? .empty : self
        }
    }

    /// Whether `entry` is one of the downstream entries.
    @usableFromInline
    func containsDownstream(_ entry: Unmanaged<AnyObject>) -> Bool {
        switch shape {
        case .list: listObject.containsDownstream(entry)
        case .loneListener, .none: false
        case .loneDownstream: self.entry.toOpaque() == entry.toOpaque()
        }
    }
}
