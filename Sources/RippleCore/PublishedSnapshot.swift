import Synchronization

/// An immutable snapshot (a pipe's call plan, a port's route) published so that the hot path reads it with neither
/// a lock nor a retain.
///
/// A reader counts itself in `readers` for as long as it borrows the published snapshot. Whoever replaces the
/// snapshot releases the old one at once when no reader is counted, and otherwise retires it; the last reader to
/// leave releases the retired ones. Both sides use sequentially consistent operations: a reader increments
/// `readers` before it loads `published`, a replacer swaps `published` out before it loads `readers`, so either the
/// replacer sees the reader or the reader sees the new snapshot.
///
/// The count is kept in multiples of `readerUnit`; the bits below it are the owner's, to claim something in the same
/// atomic update that counts the reader (RipplePipeline claims a continuation frame that way). Such an owner counts
/// itself on `readers` directly, reads ``loadPublished()`` and leaves with ``leave(subtracting:)``.
///
/// A non-copyable struct its owner stores inline (`let`), so the hot path reaches the count with no pointer hop and
/// no retain of a separate object. Keep the owner a final, non-generic class: stored inline in an open generic class
/// it corrupted the heap in debug builds on Swift 6.3 (RipplePipeline's `RouteSlot` says more).
///
/// `@unchecked Sendable`: `published` holds a raw pointer only so it can be atomic; it is one strong reference,
/// handed over by the protocol above.
@usableFromInline
package struct PublishedSnapshot<Snapshot: AnyObject>: ~Copyable, @unchecked Sendable {
    /// The readers borrowing a snapshot (in units of `readerUnit`) and the owner's low bits.
    @usableFromInline package let readers = Atomic<Int>(0)
    /// The snapshot (one strong reference), or nil.
    @usableFromInline let published = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Whether `retired` is not empty, so the last reader to leave knows it has something to release.
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    @usableFromInline let readerUnit: Int
    /// Snapshots replaced while readers borrowed them (an object of its own: the struct itself is immutable).
    private let retired = Locked<[Snapshot]>([])

    /// - Parameter readerUnit: a power of two; the bits below it in ``readers`` are the owner's.
    package init(readerUnit: Int = 1) {
        precondition(readerUnit > 0 && readerUnit & (readerUnit - 1) == 0,
                     "Ripple.PublishedSnapshot: readerUnit \(readerUnit) is not a power of two")
        self.readerUnit = readerUnit
    }

    deinit {
        // Nobody references the owner any more, so no reader is borrowing the snapshot.
        if let raw = published.load(ordering: .acquiring) {
            Unmanaged<Snapshot>.fromOpaque(raw).release()
        }
    }

    /// Starts borrowing the published snapshot (nil when there is none). Pair with ``leave()``.
    @inlinable @inline(__always)
    package func enter() -> Unmanaged<Snapshot>? {
        readers.wrappingAdd(readerUnit, ordering: .sequentiallyConsistent)
        return loadPublished()
    }

    /// The published snapshot, for a reader already counted in ``readers``.
    @inlinable @inline(__always)
    package func loadPublished() -> Unmanaged<Snapshot>? {
        published.load(ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
    }

    /// Stops borrowing; the last reader to leave releases retired snapshots.
    @inlinable @inline(__always)
    package func leave() {
        leave(subtracting: readerUnit)
    }

    /// Stops borrowing, taking `count` (one `readerUnit` plus the owner's bits it set) off ``readers``.
    @inlinable @inline(__always)
    package func leave(subtracting count: Int) {
        let before = readers.wrappingSubtract(count, ordering: .sequentiallyConsistent).oldValue
        // The owner's bits are below one unit, so this reader was the last when fewer than two units were counted.
        if before < readerUnit << 1 && hasRetired.load(ordering: .sequentiallyConsistent) {
            releaseRetired()
        }
    }

    /// Publishes the snapshot `make` builds (nil: none). `make` runs under the lock, so when several threads replace
    /// at once the last one to build is the one that stays; it must not call user code.
    ///
    /// - Returns: the snapshots to release now. Drop them outside every lock: a snapshot may hold the last
    ///   reference to user code (actions, stages) whose deinit must not run under a lock.
    package func replace(_ make: () -> Snapshot?) -> [Snapshot] {
        retired.withLock { retired in
            var garbage: [Snapshot] = []
            let new = make().map { Unmanaged.passRetained($0).toOpaque() }
            guard let raw = published.exchange(new, ordering: .sequentiallyConsistent) else { return garbage }
            let old = Unmanaged<Snapshot>.fromOpaque(raw).takeRetainedValue()
            if readers.load(ordering: .sequentiallyConsistent) < readerUnit {
                garbage.append(old)
                return garbage
            }
            retired.append(old)
            hasRetired.store(true, ordering: .sequentiallyConsistent)
            // The readers seen above may all have left before the flag was set, without seeing it.
            if readers.load(ordering: .sequentiallyConsistent) < readerUnit {
                takeRetired(&retired, into: &garbage)
            }
            return garbage
        }
    }

    @usableFromInline
    func releaseRetired() {
        let garbage = retired.withLock { retired in
            var garbage: [Snapshot] = []
            // A reader that entered since then borrows the published snapshot, never a retired one.
            if readers.load(ordering: .sequentiallyConsistent) < readerUnit {
                takeRetired(&retired, into: &garbage)
            }
            return garbage
        }
        withExtendedLifetime(garbage) {}
    }

    /// Call under `retired`'s lock with no reader counted.
    private func takeRetired(_ retired: inout [Snapshot], into garbage: inout [Snapshot]) {
        garbage.append(contentsOf: retired)
        retired = []
        hasRetired.store(false, ordering: .sequentiallyConsistent)
    }
}
