import RippleCore

/// Each thread's ``SyncCalls``, created on the thread's first synchronous call and released when the thread exits.
@usableFromInline
let syncCallsOfThisThread = ThreadLocal<SyncCalls>()

/// The synchronous calls running on one thread, innermost last, and the processes they use.
///
/// A process is reused by the next call at the same depth unless something kept it. Only its own thread touches
/// this object (it lives in a thread-local), so it needs no lock. The call path is `@inlinable`: it reads the
/// thread-local without retaining it and touches the table without exclusivity checks.
@usableFromInline
final class SyncCalls {
    /// `slots[0..<depth]` hold the processes of running calls, `slots[depth..<count]` free ones. Each slot is its
    /// own allocation, so a running call's slot never moves when deeper calls grow the table; a plain buffer rather
    /// than an array, so reading and checking a slot costs no retain and no uniqueness check of the array.
    @usableFromInline @exclusivity(unchecked) var slots: UnsafeMutablePointer<UnsafeMutablePointer<ActionProcess>>
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) private var capacity = 4

    @usableFromInline
    init() {
        slots = .allocate(capacity: capacity)
    }

    deinit {
        for index in 0..<count {
            slots[index].deinitialize(count: 1)
            slots[index].deallocate()
        }
        slots.deallocate()
    }

    /// The process of the innermost synchronous call on this thread.
    static var innermost: ActionProcess? {
        syncCallsOfThisThread.unretained?._withUnsafeGuaranteedRef { calls in
            calls.depth > 0 ? calls.slots[calls.depth - 1].pointee : nil
        }
    }

    /// The slot of the next free process, now in use; the slot keeps it alive until `pop()`.
    @inlinable @inline(__always)
    func push() -> PooledProcess {
        if depth == count {
            addProcess()
        }
        let slot = slots[depth]
        depth += 1
        return PooledProcess(slot: slot)
    }

    /// Ends the innermost call, whose process's lock is held, and lets the lock go. The process stays in its slot
    /// when the slot holds the only strong reference; a weak or unowned one may still reach it, which the lock makes
    /// safe (it finds no frame, or a later call's).
    @inlinable @inline(__always)
    func pop() {
        depth -= 1
        let slot = slots[depth]
        if isKnownUniquelyReferenced(&slot.pointee) {
            let written = PooledProcess(slot: slot).borrow { process in
                let written = process.resetForReuse()
                process.lock.unlock()
                return written
            }
            // Released after the lock: a value's deinit may use the process.
            releasedAfterUnlock(written)
        } else {
            replaceKept(slot)
        }
    }

    /// A new free process at the end of the table, for a call one level deeper than any before on this thread.
    @usableFromInline
    func addProcess() {
        if count == capacity {
            let grown = UnsafeMutablePointer<UnsafeMutablePointer<ActionProcess>>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: slots, count: count)
            slots.deallocate()
            slots = grown
            capacity *= 2
        }
        let slot = UnsafeMutablePointer<ActionProcess>.allocate(capacity: 1)
        slot.initialize(to: ActionProcess())
        (slots + count).initialize(to: slot)
        count += 1
    }

    /// Lets an action keep the process it took (it gets its own copy of the frame) and puts a fresh one in its slot.
    /// The process's lock is held on entry.
    @usableFromInline
    func replaceKept(_ slot: UnsafeMutablePointer<ActionProcess>) {
        let kept = slot.pointee
        kept.keepAfterCall()
        kept.lock.unlock()
        slot.pointee = ActionProcess()
    }
}
