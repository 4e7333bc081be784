/// A plumber's stages: an append-only store that the plumber's successive chain snapshots share.
///
/// Invariants:
/// - The entries below `count` are initialised once and never written again. A chain reads only the first
///   `count` entries of the store it was made with, so an append never touches what a running packet reads; the
///   chain reaches other threads through the core's chain slot, whose lock publishes the entries written before.
/// - Only `PlumberCore` appends, under its state's lock, and always to its current store, whose `count` is the
///   latest chain's length. A full store is copied into a new one twice its size; chains made earlier keep the old
///   one.
///
/// Why: each `addPipeline` used to copy the stage array (a snapshot shared its buffer) and map it into a new chain,
/// so a plumber built stage by stage cost n²: 8,000 stages took 1.3 s in release. Appending is now amortised O(1).
@usableFromInline
final class StageStore<P: Packet>: ManagedBuffer<StageStoreHeader, StageEntry<P>> {
    /// An empty store with room for `capacity` stages.
    static func make(capacity: Int) -> StageStore<P> {
        let buffer = create(minimumCapacity: capacity) { _ in StageStoreHeader(count: 0, capacity: capacity) }
        // `create` makes an instance of the class it is called on.
        return buffer as! StageStore<P>
    }

    deinit {
        withUnsafeMutablePointers { header, entries in
            _ = entries.deinitialize(count: header.pointee.count)
        }
    }

    /// Appends `runner` at index `count`, in this store if it has room, else in a copy twice its size, which it
    /// returns (the caller keeps whichever store it gets back).
    func appending(_ runner: StageRunner<P>, name: String) -> StageStore<P> {
        let store = header.count < header.capacity ? self : grown()
        store.withUnsafeMutablePointers { header, entries in
            let index = header.pointee.count
            (entries + index).initialize(to: StageEntry(runner: runner, info: StageInfo(index: index, name: name)))
            header.pointee.count = index + 1
        }
        return store
    }

    private func grown() -> StageStore<P> {
        let copy = StageStore.make(capacity: Swift.max(4, header.capacity * 2))
        withUnsafeMutablePointers { header, entries in
            copy.withUnsafeMutablePointers { copyHeader, copyEntries in
                copyEntries.initialize(from: entries, count: header.pointee.count)
                copyHeader.pointee.count = header.pointee.count
            }
        }
        return copy
    }

    /// The first `count` entries, as a chain reads them.
    var list: StageList<P> {
        StageList(store: self, count: header.count)
    }
}

/// The first `count` stages of a ``StageStore``: what one chain snapshot runs.
///
/// `@unchecked Sendable` (a `ManagedBuffer` is not `Sendable`): it reads only entries below `count`, which are
/// immutable (see ``StageStore``).
@usableFromInline @frozen
struct StageList<P: Packet>: @unchecked Sendable {
    @usableFromInline let store: StageStore<P>
    @usableFromInline let count: Int

    init(store: StageStore<P>, count: Int) {
        self.store = store
        self.count = count
    }

    /// The stage at `index` (below `count`: the callers check), borrowed (its entry owns it).
    @inlinable @inline(__always)
    func stage(at index: Int) -> Borrowed<StageRunner<P>> {
        store.withUnsafeMutablePointerToElements { $0[index].ref }
    }

    /// The name and index of the stage at `index`.
    func info(at index: Int) -> StageInfo {
        precondition(index >= 0 && index < count, "RipplePipeline: stage \(index) of a \(count)-stage chain")
        return store.withUnsafeMutablePointerToElements { $0[index].info }
    }

    var infos: [StageInfo] {
        store.withUnsafeMutablePointerToElements { entries in (0..<count).map { entries[$0].info } }
    }
}

@usableFromInline
struct StageStoreHeader {
    var count: Int
    let capacity: Int
}

/// One stage of a ``StageStore``.
@usableFromInline
struct StageEntry<P: Packet> {
    /// Owns the stage.
    let runner: StageRunner<P>
    /// `runner`, borrowed: running a stage costs no retain and release.
    @usableFromInline let ref: Borrowed<StageRunner<P>>
    let info: StageInfo

    init(runner: StageRunner<P>, info: StageInfo) {
        self.runner = runner
        self.ref = Borrowed(runner)
        self.info = info
    }
}
