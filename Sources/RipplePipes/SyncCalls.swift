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
        syncCallsOfThisThread.unretained.flatMap { unmanaged in
            BorrowedSyncCalls(unmanaged, of: syncCallsOfThisThread).with { calls in
                calls.depth > 0 ? calls.slots[calls.depth - 1].pointee : nil
            }
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

/// This thread's ``SyncCalls``, borrowed without a retain (a retain and release per call on the thread-local object
/// would be paid by every synchronous call).
///
/// Invariant: made from a `ThreadLocal<SyncCalls>` on the thread that uses it and used only on that thread; the
/// thread-local key holds the object until the thread exits and nothing replaces it, so it is alive at every use.
/// Checked under `RIPPLE_INTERNAL_CHECKS`: the thread-local still holds this very object at each use.
@usableFromInline @frozen
struct BorrowedSyncCalls {
    @usableFromInline let unmanaged: Unmanaged<SyncCalls>
    #if RIPPLE_INTERNAL_CHECKS
    @usableFromInline let owner: ThreadLocal<SyncCalls>
    #endif

    @inlinable @inline(__always)
    init(_ unmanaged: Unmanaged<SyncCalls>, of owner: ThreadLocal<SyncCalls>) {
        self.unmanaged = unmanaged
        #if RIPPLE_INTERNAL_CHECKS
        self.owner = owner
        #endif
    }

    @inlinable @inline(__always)
    func with<T>(_ body: (SyncCalls) -> T) -> T {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(owner.unretained?.toOpaque() == unmanaged.toOpaque(),
                     "RipplePipes: a thread's calls were used on another thread or after they were replaced")
        #endif
        return unmanaged._withUnsafeGuaranteedRef(body)
    }
}
