import Synchronization

// How propagation reads a node's `EdgeList` without retaining it.
//
// Every hop of a chain reads its node's list, and other threads may replace the list meanwhile (a listener added or
// cancelled, a transform linked or unlinked). Retaining the snapshot kept it alive, but cost two atomic
// read-modify-writes per hop (~40 instructions with the runtime calls). Instead, a reader counts itself in under
// the node lock it takes anyway (a plain increment) and out with one atomic increment when done. A writer, under
// the lock, releases the replaced list only when every reader that entered has left; otherwise it parks the list in
// `retiredEdges`, and whoever next finds the node quiescent (the last reader out, or the next writer) releases it.
//
// The reader's "out" and the writer's "parked" meet Dekker-style (each stores, then loads what the other stored),
// so both use sequentially consistent operations: at least one of them sees the other, and the parked list is
// never left behind. On x86 the reader's increment is a locked instruction either way, and its flag load a plain
// load.
//
// Why this is not RippleCore's `PublishedSnapshot` (issue 29 item 4 asks for one mechanism): that type keeps its
// retired list in a `Locked` object of its own (an allocation per node) and counts readers atomically on the way in
// too, and its own documentation warns against storing it inline in a generic class (heap corruption in debug builds
// on Swift 6.3), which `Node<Value>` is. And why it is still needed under engine 3: propagation holds the domain
// lock, but not every writer does — `ListenEdge.cancel()`, `Transform.reconcileRegistration()` (re-pointing `from` or
// `to`) and `Transform.targetDidDeinit()` (a node's deinit, which may run on a thread already inside a transaction)
// change lists under the node lock only. Deleting the counting means moving those writers under the domain lock,
// deferring the ones that run on a thread already holding it (through the thread's job queue or the release drain).

/// What a writer releases after unlocking: the list it replaced, unless readers still had it, and any lists parked
/// earlier once the node is quiescent. Not nested in `Node`: a type nested in a generic class is generic too, and
/// the unspecialised link paths would look its metadata up on every edge change. `retired` is nil, not empty, in the
/// common case, so dropping it costs nothing.
@usableFromInline
struct ReleasedEdges {
    var replaced: AnyObject?
    var retired: [AnyObject]?
}

/// The edges a propagation took with ``Node/beginReadingEdges()``: the object, unretained, and its shape.
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

    /// Installs `new` as the edge list and bumps `edgesVersion`. Call under `lock`; release what it returns after
    /// unlocking (a list may hold the last reference to a transform, and so to a node with locks of its own).
    @usableFromInline @inline(__always)
    func replaceEdges(_ new: NodeEdges) -> ReleasedEdges {
        // A swap moves the old edges out without a retain/release pair.
        var swapped = new
        swap(&edges, &swapped)
        let previous = swapped.object
        bumpEdgesVersion()
        if edgeReadersExited.load(ordering: .sequentiallyConsistent) == edgeReadersEntered {
            return ReleasedEdges(replaced: previous, retired: takeRetiredEdges())
        }
        // A reader still has the old edges: park what they hold (nothing, for edges without a counted object).
        guard let previous else { return ReleasedEdges(replaced: nil, retired: nil) }
        return ReleasedEdges(replaced: nil, retired: holdUntilRead(previous))
    }

    /// Parks `object` with the replaced lists, released once every reader out now has left. Call under `lock`, with
    /// a reader out; release what it returns after unlocking: what was parked, if every reader left meanwhile.
    func holdUntilRead(_ object: AnyObject) -> [AnyObject]? {
        retiredEdges.append(object)
        hasRetiredEdges.store(true, ordering: .sequentiallyConsistent)
        // A reader may have left between the caller's look and the store: look again, now that the flag is visible.
        if edgeReadersExited.load(ordering: .sequentiallyConsistent) == edgeReadersEntered {
            return takeRetiredEdges()
        }
        return nil
    }

    /// Bumps `edgesVersion` for a change made in place. Call under `lock`.
    func bumpEdgesVersion() {
        edgesVersion.store(edgesVersion.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }

    /// The parked lists, now that no reader has them. Call under `lock` with the node quiescent.
    @inline(__always)
    private func takeRetiredEdges() -> [AnyObject]? {
        if !hasRetiredEdges.load(ordering: .relaxed) { return nil }
        hasRetiredEdges.store(false, ordering: .relaxed)
        let retired = retiredEdges
        retiredEdges = []
        return retired
    }

    /// Takes the current list for reading, without a retain. Call under `lock`; call ``finishReadingEdges()`` once
    /// done with it (after unlocking).
    @inlinable @inline(__always)
    final func beginReadingEdges() -> EdgesSnapshot {
        edgeReadersEntered &+= 1
        // Field by field: copying `edges` as a whole retained and released its object (~20 instructions a hop).
        return EdgesSnapshot(object: edges.entry, shape: edges.shape)
    }

    /// Ends a read begun with ``beginReadingEdges()``; the last reader out releases lists parked meanwhile.
    @inlinable @inline(__always)
    final func finishReadingEdges() {
        edgeReadersExited.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if hasRetiredEdges.load(ordering: .sequentiallyConsistent) { releaseRetiredEdges() }
    }

    @usableFromInline
    final func releaseRetiredEdges() {
        lock.lock()
        let retired = edgeReadersExited.load(ordering: .sequentiallyConsistent) == edgeReadersEntered
            ? takeRetiredEdges() : nil
        lock.unlock()
        extendLifetime(retired)
    }
}
