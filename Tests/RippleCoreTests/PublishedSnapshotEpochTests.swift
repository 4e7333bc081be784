#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import RippleCore
import Synchronization
import Testing

@Suite("PublishedSnapshot: retired snapshots stay bounded under readers that never all leave")
struct PublishedSnapshotEpochTests {
    final class Owner: @unchecked Sendable {
        let slot = PublishedSnapshot<Tracked>()
    }

    /// Two readers take turns so that one always borrows (the count never reaches zero) while the snapshot is
    /// replaced between every step: the replaced ones must not pile up until the readers all leave.
    @Test func overlappingReadersDoNotLetReplacedSnapshotsPileUp() {
        let live = Locked(0)
        let owner = Owner()
        _ = owner.slot.replace { Tracked(0, live: live) }
        var held = [owner.slot.enter()]
        var mostAlive = 0
        for round in 1...1_000 {
            _ = owner.slot.replace { Tracked(round, live: live) }
            held.append(owner.slot.enter())
            #expect(held.last?.snapshot?.takeUnretainedValue().number == round)
            owner.slot.leave(unit: held.removeFirst().unit)
            mostAlive = max(mostAlive, live.value)
        }
        // The published one, the one the remaining reader borrows, and at most one more awaiting its readers.
        #expect(mostAlive <= 3, "replaced snapshots piled up: \(mostAlive) alive at once")
        owner.slot.leave(unit: held.removeFirst().unit)
        _ = owner.slot.replace { nil }
        #expect(live.value == 0)
    }

    /// The same on real threads: two readers that each take their next borrow before giving back the last (so the
    /// count never reaches zero once they run), and a replacer that waits for both to move on between replacements
    /// (a bound on replacements per borrow, without which the bound below would depend on the scheduler).
    @Test func replacedSnapshotsStayBoundedOnThreadsWhoseReadsOverlap() {
        let mostAlive = overlap(rounds: 2_000, paced: true)
        // The published one, one or two borrowed per reader, a few awaiting their readers; not one per round.
        #expect(mostAlive <= 10, "replaced snapshots piled up: \(mostAlive) alive at once over 2,000 rounds")
    }

    /// The replacer does not wait for the readers here, so replacements land anywhere in a borrow: no reader may read
    /// a freed snapshot (the address and thread sanitizers would report it in CI; the numbers would go backwards).
    @Test func aSnapshotIsNeverFreedWhileBorrowedWhateverTheInterleaving() {
        overlap(rounds: 5_000, paced: false)
    }

    /// Runs the two overlapping readers against `rounds` replacements and checks what every interleaving must give:
    /// each reader saw snapshots, never older than one it saw before, and once the replacements stop every replaced
    /// snapshot is freed while the readers go on borrowing. Returns the most snapshots alive at once.
    @discardableResult
    private func overlap(rounds: Int, paced: Bool) -> Int {
        let live = Locked(0)
        let owner = Owner()
        _ = owner.slot.replace { Tracked(0, live: live) }
        let readerCount = 2
        let progress = Progress(readerCount)
        let done = (0..<readerCount).map { reader in
            startThread {
                var held = owner.slot.enter()
                while !progress.stop.load(ordering: .acquiring) {
                    let next = owner.slot.enter()
                    // Both are borrowed, so both are alive; the later one is the same or newer.
                    let old = held.snapshot?.takeUnretainedValue().number ?? -1
                    let new = next.snapshot?.takeUnretainedValue().number ?? -1
                    if new < old { progress.backwards.wrappingAdd(1, ordering: .relaxed) }
                    owner.slot.leave(unit: held.unit)
                    held = next
                    progress.readers[reader].lastRead.store(new &+ 1, ordering: .releasing)
                    progress.readers[reader].steps.wrappingAdd(1, ordering: .releasing)
                    // Still borrowing: lets the replacer run on a busy machine.
                    sched_yield()
                }
                owner.slot.leave(unit: held.unit)
            }
        }
        // Both readers borrowing before the first replacement, so the replacements overlap them.
        for reader in progress.readers {
            while reader.steps.load(ordering: .acquiring) == 0 { sched_yield() }
        }
        var mostAlive = 0
        for round in 1...rounds {
            if paced {
                let seen = progress.readers.map { $0.steps.load(ordering: .acquiring) }
                for reader in 0..<readerCount {
                    while progress.readers[reader].steps.load(ordering: .acquiring) == seen[reader] { sched_yield() }
                }
            }
            _ = owner.slot.replace { Tracked(round, live: live) }
            mostAlive = max(mostAlive, live.value)
        }
        // The readers go on borrowing: the last replaced snapshots go once their readers have moved on (a few steps),
        // not when every reader stops. Bounded, so that a leak fails rather than hangs.
        let settled = progress.readers[0].steps.load(ordering: .acquiring)
        while live.value != 1 && progress.readers[0].steps.load(ordering: .acquiring) &- settled < 10_000 {
            sched_yield()
        }
        #expect(live.value == 1, "replaced snapshots still alive while readers keep borrowing: \(live.value - 1)")
        progress.stop.store(true, ordering: .releasing)
        for finished in done { finished.wait() }
        #expect(progress.readers.allSatisfy { $0.lastRead.load(ordering: .acquiring) > 0 },
                "every reader saw a snapshot")
        #expect(progress.backwards.load(ordering: .relaxed) == 0, "a reader saw an older snapshot after a newer one")
        #expect(live.value == 1)
        _ = owner.slot.replace { nil }
        #expect(live.value == 0)
        return mostAlive
    }

    final class Progress: Sendable {
        final class Reader: Sendable {
            /// Borrows taken so far.
            let steps = Atomic<Int>(0)
            /// The number of the snapshot last read, plus one (0: none yet).
            let lastRead = Atomic<Int>(0)
        }
        let readers: [Reader]
        let stop = Atomic<Bool>(false)
        /// Times a reader's newer borrow showed an older snapshot than the one it still held.
        let backwards = Atomic<Int>(0)
        init(_ count: Int) {
            readers = (0..<count).map { _ in Reader() }
        }
    }
}

/// Starts `body` on a thread of its own (not Dispatch's pool, which may run fewer at once than the test needs); the
/// returned semaphore is signalled once it has returned.
private func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    final class Job: Sendable {
        let run: @Sendable () -> Void
        let done = DispatchSemaphore(value: 0)
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let job = Job(body)
    var handle = pthread_t()
    let created = pthread_create(&handle, nil, { raw in
        let job = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue()
        (job as! Job).run()
        (job as! Job).done.signal()
        return nil
    }, Unmanaged.passRetained(job as AnyObject).toOpaque())
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_detach(handle)
    return job.done
}
