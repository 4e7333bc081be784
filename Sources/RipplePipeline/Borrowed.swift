/// A reference that does not keep its object alive: the one place RipplePipeline holds `Unmanaged`.
///
/// Invariant: while a `Borrowed` is used, something else holds a strong reference to its object. Each place that
/// stores one names that owner in its comment:
/// - a stage of a chain (`StageEntry.ref`): the entry's `runner`, in the same store;
/// - a box's chain (`NextBox.chainRef`): the frame's chain while the box is idle or receiving, `keptChain` once it
///   escaped;
/// - a packet's sink (`SinkRef`): whoever runs the packet (`Plumber.process(_:)`, an async stage's task, an escaped
///   box's `keptSink`);
/// - a route's chains and frames (`Route.sole`, `Route.frameRefs`): the route's `chains` and `frames`;
/// - a claimed route (`RouteClaim.route`): the port's published snapshot, while the emit is counted as its reader.
///
/// The owner must outlive the use in the optimiser's eyes, not only in the source: an owner in a local or `inout`
/// that is overwritten or dropped after the borrow's last use may be released *before* that use (the optimiser ends
/// a reference at its last use as a reference, and a borrow is not one). So a borrow never outlives the write that
/// drops its owner; where it would, take a strong reference instead (`Chain.receive` moves an escaping box out of
/// its holder for that reason).
///
/// Why not strong references: a retain and a release per stage and per packet were the largest cost of the
/// synchronous path (Pipeline4Stages: 536 instructions a packet with these borrows; see BENCHMARKS.md).
///
/// Checked under `RIPPLE_INTERNAL_CHECKS`: a weak reference beside the unmanaged one must still find the object at
/// every use, so a use after the owner let go stops with a message instead of reading freed memory.
@usableFromInline @frozen
struct Borrowed<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>
    #if RIPPLE_INTERNAL_CHECKS
    @usableFromInline weak var shadow: Object?
    #endif

    @inlinable @inline(__always)
    init(_ object: Object) {
        unmanaged = Unmanaged.passUnretained(object)
        #if RIPPLE_INTERNAL_CHECKS
        shadow = object
        #endif
    }

    /// From a reference a published snapshot hands out unretained (its reader count keeps it alive).
    @inlinable @inline(__always)
    init(_ unmanaged: Unmanaged<Object>) {
        self.unmanaged = unmanaged
        #if RIPPLE_INTERNAL_CHECKS
        shadow = unmanaged.takeUnretainedValue()
        #endif
    }

    /// Runs `body` with the object, neither retained nor released.
    @inlinable @inline(__always)
    func with<T>(_ body: (Object) -> T) -> T {
        check()
        return unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained for the caller (rare paths).
    @inlinable
    var object: Object {
        check()
        return unmanaged.takeUnretainedValue()
    }

    @inlinable @inline(__always)
    func check() {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(shadow != nil, "RipplePipeline: a borrowed \(Object.self) was used after its owner let it go")
        #endif
    }
}

/// Sendable as `Unmanaged` is: it only carries the reference; whoever uses the object across threads synchronises.
extension Borrowed: @unchecked Sendable {}
