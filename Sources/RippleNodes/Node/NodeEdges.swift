/// A node's listeners and downstream slots: an ``EdgeList``, or, for the two most common shapes, the one element on
/// its own: a lone listener (a listened source node) or a lone downstream slot (a node inside a chain of operators).
/// The lone shapes save the list's allocation, one per node of a chain.
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
    }

    @usableFromInline let object: AnyObject
    @usableFromInline let shape: Shape

    @usableFromInline
    init(object: AnyObject, shape: Shape) {
        self.object = object
        self.shape = shape
    }

    init(_ list: EdgeList) {
        self.init(object: list, shape: .list)
    }

    @usableFromInline
    static var empty: NodeEdges { NodeEdges(EdgeList.empty) }

    private var list: EdgeList? {
        shape == .list ? unsafeDowncast(object, to: EdgeList.self) : nil
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
        case .list: unsafeDowncast(object, to: EdgeList.self).liveDownstreamCount == 0
        case .loneListener: true
        case .loneDownstream: false
        }
    }

    var listenerCount: Int {
        switch shape {
        case .list: unsafeDowncast(object, to: EdgeList.self).liveListenerCount
        case .loneListener: 1
        case .loneDownstream: 0
        }
    }

    /// The downstream slots, in link order.
    var downstream: [AnyObject] {
        switch shape {
        case .list: unsafeDowncast(object, to: EdgeList.self).downstream.map { $0.takeUnretainedValue() }
        case .loneListener: []
        case .loneDownstream: [object]
        }
    }

    @usableFromInline
    func addingListener(_ listener: AnyObject) -> NodeEdges {
        switch shape {
        case .list:
            isEmpty ? NodeEdges(object: listener, shape: .loneListener)
                : NodeEdges(unsafeDowncast(object, to: EdgeList.self).addingListener(listener))
        case .loneListener: NodeEdges(EdgeList.pair(object, listener, listeners: 2))
        case .loneDownstream: NodeEdges(EdgeList.pair(listener, object, listeners: 1))
        }
    }

    func addingDownstream(_ slot: AnyObject) -> NodeEdges {
        switch shape {
        case .list:
            isEmpty ? NodeEdges(object: slot, shape: .loneDownstream)
                : NodeEdges(unsafeDowncast(object, to: EdgeList.self).addingDownstream(slot))
        case .loneListener: NodeEdges(EdgeList.pair(object, slot, listeners: 1))
        case .loneDownstream: NodeEdges(EdgeList.pair(object, slot, listeners: 0))
        }
    }

    func removingListener(_ listener: AnyObject) -> NodeEdges {
        switch shape {
        case .list: NodeEdges(unsafeDowncast(object, to: EdgeList.self).removingListener(listener))
        case .loneListener: object === listener ? .empty : self
        case .loneDownstream: self
        }
    }

    func removingDownstream(where isRemoved: (AnyObject) -> Bool) -> NodeEdges {
        switch shape {
        case .list: NodeEdges(unsafeDowncast(object, to: EdgeList.self).removingDownstream(where: isRemoved))
        case .loneListener: self
        case .loneDownstream: isRemoved(object) ? .empty : self
        }
    }

    /// Whether `slot` is one of the downstream slots.
    @usableFromInline
    func containsDownstream(_ slot: AnyObject) -> Bool {
        switch shape {
        case .list: unsafeDowncast(object, to: EdgeList.self).containsDownstream(slot)
        case .loneListener: false
        case .loneDownstream: object === slot
        }
    }
}
