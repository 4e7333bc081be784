import Dispatch
import RippleCore
import Testing

@Suite("PublishedSnapshot: lock-free reads, retirement while borrowed")
struct PublishedSnapshotTests {
    final class Snapshot: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    final class Owner: @unchecked Sendable {
        let slot: PublishedSnapshot<Snapshot>
        init(readerUnit: Int = 1) { slot = PublishedSnapshot(readerUnit: readerUnit) }
    }

    @Test func aReaderSeesWhatWasPublishedAndNothingBefore() {
        let owner = Owner()
        let none = owner.slot.enter()
        #expect(none.snapshot == nil)
        owner.slot.leave(unit: none.unit)
        #expect(owner.slot.replace { Snapshot(1) }.isEmpty, "nothing was published before")
        let seen = owner.slot.enter()
        #expect(seen.snapshot?.takeUnretainedValue().number == 1)
        owner.slot.leave(unit: seen.unit)
    }

    @Test func aReplacedSnapshotNobodyReadsIsHandedBackAtOnce() {
        let owner = Owner()
        _ = owner.slot.replace { Snapshot(1) }
        let garbage = owner.slot.replace { Snapshot(2) }
        #expect(garbage.map(\.number) == [1])
    }

    @Test func aSnapshotReplacedWhileBorrowedLivesUntilTheLastReaderLeaves() {
        let owner = Owner()
        weak var first: Snapshot?
        do {
            let made = Snapshot(1)
            first = made
            _ = owner.slot.replace { made }
        }
        let borrowed = owner.slot.enter()
        let second = owner.slot.enter()
        #expect(owner.slot.replace { Snapshot(2) }.isEmpty, "retired, not handed back: readers borrow it")
        #expect(first != nil)
        #expect(borrowed.snapshot?.takeUnretainedValue().number == 1)
        owner.slot.leave(unit: second.unit)
        #expect(first != nil, "one reader still borrows it")
        owner.slot.leave(unit: borrowed.unit)
        #expect(first == nil, "the last reader released it")
        let third = owner.slot.enter()
        #expect(third.snapshot?.takeUnretainedValue().number == 2)
        owner.slot.leave(unit: third.unit)
    }

    @Test func theOwnersLowBitsDoNotCountAsReaders() {
        let owner = Owner(readerUnit: 4)
        weak var first: Snapshot?
        do {
            let made = Snapshot(1)
            first = made
            _ = owner.slot.replace { made }
        }
        // A reader that also claims bit 1 below the unit, as RipplePipeline claims a frame.
        let unit = owner.slot.unit(entering: owner.slot.readers.load(ordering: .relaxed))
        #expect(unit == 4)
        owner.slot.readers.wrappingAdd(unit + 1, ordering: .sequentiallyConsistent)
        #expect(owner.slot.loadPublished()?.takeUnretainedValue().number == 1)
        #expect(owner.slot.replace { nil }.isEmpty)
        owner.slot.leave(unit: unit, ownerBits: 1)
        #expect(first == nil)
        // Bit 63 of the count is the epoch, which the replacement flipped.
        #expect(owner.slot.readers.load(ordering: .sequentiallyConsistent) & Int.max == 0)
    }

    @Test func freeingTheOwnerReleasesThePublishedSnapshot() {
        weak var published: Snapshot?
        do {
            let owner = Owner()
            let made = Snapshot(1)
            published = made
            _ = owner.slot.replace { made }
        }
        #expect(published == nil)
    }

    @Test func concurrentReadersAndReplacersNeitherLeakNorReadAFreedSnapshot() {
        let live = Locked(0)
        let reads = Locked(0)
        let slot = LockedSlot()
        _ = slot.snapshots.replace { Tracked(0, live: live) }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 1...5_000 {
                if worker == 0 {
                    _ = slot.snapshots.replace { Tracked(round, live: live) }
                } else {
                    // Reading a freed snapshot would trip the address and thread sanitizers in CI.
                    let (snapshot, unit) = slot.snapshots.enter()
                    let number = snapshot?.takeUnretainedValue().number
                    slot.snapshots.leave(unit: unit)
                    if number != nil { reads.withLock { $0 += 1 } }
                }
            }
        }
        #expect(reads.value == 3 * 5_000, "a snapshot was published all along")
        #expect(live.value == 1, "only the published snapshot is alive: every retired one was released")
        _ = slot.snapshots.replace { nil }
        #expect(live.value == 0)

        final class LockedSlot: @unchecked Sendable {
            let snapshots = PublishedSnapshot<Tracked>()
        }
    }
}

/// A snapshot that counts the live instances in `live`, so a test sees which were freed.
final class Tracked: Sendable {
    let live: Locked<Int>
    let number: Int
    init(_ number: Int, live: Locked<Int>) {
        self.number = number
        self.live = live
        live.withLock { $0 += 1 }
    }
    deinit { live.withLock { $0 -= 1 } }
}
