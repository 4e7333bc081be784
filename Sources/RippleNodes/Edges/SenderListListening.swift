import RippleCore

// The sender-list listener (EasyReact's `withSenderListAndContextBlock:`): besides the value and its context, the
// listener sees which nodes the value came through in this transaction.
//
// Invariants: the list is read on the propagating thread while the listener runs, so it is exact for a value the
// running transaction brought; the current value delivered on attach (or handed over from another thread, see
// `Node.attachDeliveringCurrent`) came through no other node, and its list holds the listened node alone. Only this
// variant pays for the list (one array per value); plain listeners are untouched.

extension Listening {
    /// Calls `block` with each value, the nodes it came through (a ``SenderSnapshot``, which the listened node is
    /// always in) and its context (EasyReact's `withSenderListAndContextBlock:`).
    ///
    /// ```swift
    /// let bag = CancelBag()
    /// let source = MutableNode<Int>()
    /// let doubled = source.map { $0 * 2 }
    /// doubled.listened(by: bag).withSenderListAndContextBlock { value, senders, _ in
    ///     print(value, senders.contains(source))   // 2 true
    /// }
    /// source.value = 1
    /// ```
    @discardableResult
    public func withSenderListAndContextBlock(
        _ block: @escaping @Sendable (Value, SenderSnapshot, (any Sendable)?) -> Void
    ) -> any CancelToken {
        let id = ObjectIdentifier(node)
        return withContextBlock(wantsSenders: true) { value, context in
            block(value, currentSenders(of: id), context)
        }
    }
}

/// The nodes the value reaching node `id`'s listeners came through: the thread's sender list when `id` is the
/// node settling now, `id` alone otherwise (the current value delivered on attach).
private func currentSenders(of id: ObjectIdentifier) -> SenderSnapshot {
    let state = PropagationState.current.takeUnretainedValue()
    // A listener runs after its transaction committed, with the list kept for it (see `Node.collectDelivery`).
    if let senders = state.deliveringSenders { return senders }
    let path = state.path
    if path.count > state.pathBase && path.base[path.count - 1] == id {
        return SenderSnapshot(ids: state.snapshotIDs())
    }
    return SenderSnapshot(ids: [id])
}

extension SenderSnapshot {
    /// Whether the value came through `node`.
    public func contains(_ node: some GraphNode) -> Bool {
        ids.contains(ObjectIdentifier(node))
    }

    /// How many nodes the value came through, the listened one included.
    public var count: Int { ids.count }
}
