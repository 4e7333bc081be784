// How propagation reads a node's edges without retaining them, and without counting itself in as a reader.
//
// Invariants:
// - Propagation reads `edges` only while its thread holds the graph's domain (see `Domain.swift`), and every edge
//   writer holds that domain too (`EdgeStore.swift`). So the one writer that can change a list while it is being
//   read is the reading thread itself, re-entered from user code it calls in the middle of the read (a transform, an
//   Observation callback). The node is then on that thread's settle path (`PropagationState.path`): pushed right
//   after the snapshot is taken, popped right after the read ends (`Node.settleLockedInline`).
// - A writer that finds the node on its own settle path neither edits the list in place nor releases it: it
//   installs a new list and hands the old one to the thread's state, which releases it when the transaction commits,
//   long after the read ended. Otherwise nobody reads the list and the old one is released at once (after the node
//   lock).
// So a read costs no atomic operation and no retain (engine 2 counted readers out with a locked increment per hop),
// and reclaiming a list needs no mechanism beyond the domain lock the engine holds anyway.

/// The edges a propagation took with ``Node/readEdges()``: the object, unretained, and its shape.
@usableFromInline @frozen
struct EdgesSnapshot {
    @usableFromInline let object: Unmanaged<AnyObject>
    @usableFromInline let shape: NodeEdges.Shape

    @inlinable
    init(_ edges: NodeEdges) {
        self.init(object: edges.entry, shape: edges.shape)
    }

    @inlinable @inline(__always)
    init(object: Unmanaged<AnyObject>, shape: NodeEdges.Shape) {
        self.object = object
        self.shape = shape
    }

    /// The listeners followed by the downstream slots, and how many of each. A lone edge is read through `lone`,
    /// which holds `object`.
    @inlinable @inline(__always)
    func layout(lone: UnsafeMutablePointer<Unmanaged<AnyObject>>)
        -> (elements: UnsafeMutablePointer<Unmanaged<AnyObject>>, listeners: Int, downstream: Int) {
        switch shape {
        case .list:
            return object._withUnsafeGuaranteedRef {
                let list = unsafeDowncast($0, to: EdgeList.self)
                return (list.elements, list.listenerCount, list.downstreamCount)
            }
        case .loneListener:
            return (lone, 1, 0)
        case .loneDownstream:
            return (lone, 0, 1)
        case .none:
            return (lone, 0, 0)
        }
    }
}

extension Node {
    /// The current edges, for reading without a retain. Call under `lock`, holding the domain, and push this node on
    /// the settle path before calling any user code (see above).
    @inlinable @inline(__always)
    final func readEdges(state: PropagationState) -> EdgesSnapshot {
        #if RIPPLE_INTERNAL_CHECKS
        checkDomainHeld(state, api: "propagation")
        #endif
        // Field by field: copying `edges` as a whole retained and released its object (~20 instructions a hop).
        return EdgesSnapshot(object: edges.entry, shape: edges.shape)
    }

    /// Installs `new` as the edges and bumps `edgesVersion`. Call under `lock`, holding the domain; release what it
    /// returns after unlocking (a list may hold the last reference to a transform, and so to a node).
    func replaceEdges(_ new: NodeEdges) -> AnyObject? {
        // A swap moves the old edges out without a retain/release pair.
        var swapped = new
        swap(&edges, &swapped)
        bumpEdgesVersion()
        guard let previous = swapped.object else { return nil }
        return threadState._withUnsafeGuaranteedRef { state in
            guard isBeingRead(by: state) else { return previous }
            state.retiredEdges.append(previous)
            return nil
        }
    }

    /// Whether this thread is reading the edges now, further up its stack. Call under `lock`, holding the domain:
    /// no other thread can be reading them then.
    var isBeingRead: Bool {
        threadState._withUnsafeGuaranteedRef { isBeingRead(by: $0) }
    }

    /// ``isBeingRead`` for a caller that has this thread's state at hand.
    private func isBeingRead(by state: PropagationState) -> Bool {
        #if RIPPLE_INTERNAL_CHECKS
        checkDomainHeld(state, api: "an edge change")
        #endif
        return state.path.count > 0 && state.path.contains(ObjectIdentifier(self), from: 0)
    }

    /// Bumps `edgesVersion` for a change made in place. Call under `lock`.
    func bumpEdgesVersion() {
        edgesVersion &+= 1
    }

    #if RIPPLE_INTERNAL_CHECKS
    /// Stops unless this thread holds the node's domain (`state.held`, a root): what reading edges without a reader
    /// count relies on. Call under `lock`.
    @usableFromInline
    final func checkDomainHeld(_ state: PropagationState, api: String) {
        var domain = domainStorage
        while let current = domain, current !== state.held { domain = current.parent }
        precondition(domain != nil && state.held?.held.load(ordering: .relaxed) == true,
                     "invariant: \(api) on node '\(nameStorage ?? "undefined")' without holding its domain")
    }
    #endif
}
