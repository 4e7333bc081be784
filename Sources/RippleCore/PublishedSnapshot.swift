import Synchronization

/// An immutable snapshot (a pipe's call plan, a port's route) published so that the hot path reads it with neither
/// a lock nor a retain, and whose replaced snapshots are freed once the readers that could have seen them have left,
/// even while other readers keep coming.
///
/// A reader counts itself in `readers` for as long as it borrows the published snapshot: one atomic add in, one
/// atomic subtract out. The count is split in two halves, one per epoch; a reader adds itself to the half of the
/// epoch it read at entry and takes itself off that same half when it leaves (the unit ``enter()`` hands back says
/// which). Invariants, all kept under `retired`'s lock:
///
/// - A snapshot replaced since the last flip of the epoch is in `retired.current`: any counted reader may borrow it.
/// - A snapshot replaced before the last flip is in `retired.old`: only readers counted in the inactive half (the
///   half of the epoch before the flip) may borrow it. The epoch flips only when that half is empty and `old` has
///   been freed, in one compare-and-exchange, so every reader that could have seen `current` is then in the newly
///   inactive half, and a reader counted after the flip reads the published snapshot, never a retired one.
/// - So `old` is freed as soon as the inactive half is seen empty, and a replaced snapshot waits at most for the
///   readers counted before the next flip to leave (two generations of borrows), however many readers arrive
///   meanwhile. The single count this replaced waited for every reader to leave at once, which constant
///   overlapping readers never did, and replaced snapshots piled up for as long as they kept coming.
///
/// Who moves things along: the replacer, and a reader whose leave empties its half while `hasRetired` is set. Both
/// sides use sequentially consistent operations: a reader changes `readers` before it loads `published` (or
/// `hasRetired`), a replacer swaps `published` out (or sets `hasRetired`) before it loads `readers`, so either the
/// replacer sees the reader or the reader sees the new snapshot (or the flag).
///
/// Which half a reader picks does not matter for safety (it loads `published` after counting itself, and the flip
/// checks the half it is in), only that it leaves the half it entered; it reads the epoch with a relaxed load.
///
/// Layout of `readers`: bit 63 is the epoch (set: half 1 is active); half 0 counts in units of `readerUnit` and half 1
/// in units of `readerUnit << countBits`, each `countBits` wide; the bits below `readerUnit` are the owner's, to claim
/// something in the same atomic update that counts the reader (RipplePipeline claims a continuation frame that way).
/// Such an owner reads `readers`, adds ``unit(entering:)`` of what it read plus its bits with a compare-and-exchange,
/// reads ``loadPublished()`` and leaves with ``leave(unit:ownerBits:)``.
///
/// A non-copyable struct its owner stores inline (`let`), so the hot path reaches the count with no pointer hop and
/// no retain of a separate object. Keep the owner a final, non-generic class: stored inline in an open generic class
/// it corrupted the heap in debug builds on Swift 6.3 (RipplePipeline's `RouteSlot` says more).
///
/// `@unchecked Sendable`: `published` holds a raw pointer only so it can be atomic; it is one strong reference,
/// handed over by the protocol above.
@usableFromInline
package struct PublishedSnapshot<Snapshot: AnyObject>: ~Copyable, @unchecked Sendable {
    /// Bits per half of the reader count: 268 million readers at once, nested calls included.
    @usableFromInline static var countBits: Int { 28 }

    /// The epoch (bit 63), the readers borrowing a snapshot in each half, and the owner's low bits (see above).
    @usableFromInline package let readers = Atomic<Int>(0)
    /// The snapshot (one strong reference), or nil.
    @usableFromInline let published = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Whether `retired` holds anything, so a reader that empties its half knows it may have something to release.
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    /// One reader in half 0; the bits below it are the owner's.
    @usableFromInline let readerUnit: Int
    /// One reader in half 1.
    @usableFromInline let otherUnit: Int
    /// Snapshots replaced while readers borrowed them (an object of its own: the struct itself is immutable).
    private let retired = Locked(Retired())

    struct Retired {
        /// Replaced since the last flip of the epoch: any counted reader may borrow them.
        var current: [Snapshot] = []
        /// Replaced before the last flip: only readers in the inactive half may borrow them.
        var old: [Snapshot] = []
        var isEmpty: Bool { current.isEmpty && old.isEmpty }
    }

    /// - Parameter readerUnit: a power of two up to 128; the bits below it in ``readers`` are the owner's.
    package init(readerUnit: Int = 1) {
        precondition(readerUnit > 0 && readerUnit <= 128 && readerUnit & (readerUnit - 1) == 0,
                     "Ripple.PublishedSnapshot: readerUnit \(readerUnit) is not a power of two up to 128")
        self.readerUnit = readerUnit
        otherUnit = readerUnit << Self.countBits
    }

    deinit {
        // Nobody references the owner any more, so no reader is borrowing the snapshot.
        if let raw = published.load(ordering: .acquiring) {
            Unmanaged<Snapshot>.fromOpaque(raw).release()
        }
    }

    /// Starts borrowing the published snapshot (nil when there is none). Pass `unit` to ``leave(unit:ownerBits:)``.
    @inlinable @inline(__always)
    package func enter() -> (snapshot: Unmanaged<Snapshot>?, unit: Int) {
        let unit = unit(entering: readers.load(ordering: .relaxed))
        readers.wrappingAdd(unit, ordering: .sequentiallyConsistent)
        return (loadPublished(), unit)
    }

    /// What a reader adds to ``readers`` to count itself, given a value of ``readers`` it read: one unit of the
    /// active half.
    @inlinable @inline(__always)
    package func unit(entering readersSeen: Int) -> Int {
        readersSeen < 0 ? otherUnit : readerUnit
    }

    /// The published snapshot, for a reader already counted in ``readers``.
    @inlinable @inline(__always)
    package func loadPublished() -> Unmanaged<Snapshot>? {
        published.load(ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
    }

    /// Stops borrowing: takes `unit` (what ``enter()`` or ``unit(entering:)`` gave) and the owner's bits the reader
    /// set off ``readers``. The last reader to leave a half moves the retired snapshots along.
    @inlinable @inline(__always)
    package func leave(unit: Int, ownerBits: Int = 0) {
        let before = readers.wrappingSubtract(unit &+ ownerBits, ordering: .sequentiallyConsistent).oldValue
        // Fewer than two units in this reader's half: it was the last there.
        if hasRetired.load(ordering: .sequentiallyConsistent)
            && before & (unit &* ((1 << Self.countBits) - 1)) < unit << 1 {
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
            retired.current.append(Unmanaged<Snapshot>.fromOpaque(raw).takeRetainedValue())
            collect(&retired, into: &garbage)
            return garbage
        }
    }

    @usableFromInline
    func releaseRetired() {
        let garbage = retired.withLock { retired in
            var garbage: [Snapshot] = []
            collect(&retired, into: &garbage)
            return garbage
        }
        withExtendedLifetime(garbage) {}
    }

    /// Moves into `garbage` what no reader can borrow any more, flipping the epoch when that lets more go, and keeps
    /// `hasRetired` in step. Call under `retired`'s lock.
    private func collect(_ retired: inout Retired, into garbage: inout [Snapshot]) {
        while true {
            advance(&retired, into: &garbage)
            let pending = !retired.isEmpty
            hasRetired.store(pending, ordering: .sequentiallyConsistent)
            // The last reader of a half may have left before the flag was set, without seeing it: look again.
            guard pending, inactiveCount(readers.load(ordering: .sequentiallyConsistent)) == 0 else { return }
        }
    }

    /// Frees `old` once the inactive half is empty, then flips the epoch if `current` is waiting, as long as that
    /// makes progress. Call under `retired`'s lock.
    private func advance(_ retired: inout Retired, into garbage: inout [Snapshot]) {
        while !retired.isEmpty {
            let seen = readers.load(ordering: .sequentiallyConsistent)
            if seen & ~Int.min < readerUnit {
                // Nobody is counted: a reader that comes now reads the published snapshot.
                garbage.append(contentsOf: retired.old)
                garbage.append(contentsOf: retired.current)
                retired = Retired()
                return
            }
            guard inactiveCount(seen) == 0 else { return }
            // Whoever could have borrowed `old` was in the inactive half, and has left.
            garbage.append(contentsOf: retired.old)
            retired.old = []
            guard !retired.current.isEmpty else { return }
            // The inactive half is empty, so after the flip whoever could have borrowed `current` is in the half
            // that becomes inactive. Fails (and looks again) when a reader came or went meanwhile.
            if readers.compareExchange(expected: seen, desired: seen ^ Int.min,
                                       ordering: .sequentiallyConsistent).exchanged {
                retired.old = retired.current
                retired.current = []
            }
        }
    }

    /// The readers (in units, shifted) of the half that is not the epoch's, in `readersSeen`.
    private func inactiveCount(_ readersSeen: Int) -> Int {
        let inactiveUnit = readersSeen < 0 ? readerUnit : otherUnit
        return readersSeen & (inactiveUnit &* ((1 << Self.countBits) - 1))
    }
}
