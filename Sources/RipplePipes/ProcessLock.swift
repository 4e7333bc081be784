import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock of one ``ActionProcess``: one atomic flag, inlined into the call loop.
///
/// A deliberate exception to "every Ripple type uses RippleCore's `Lock`": a synchronous call through a chain takes
/// its process's lock once per action that runs (it is released only while the action's body runs), and a
/// `pthread_mutex` pair there cost ~90 instructions and two atomic read-modify-writes per action, a third of a
/// 10-pipe call; this costs one compare-exchange and one store. It is contended only when an action hands its
/// process to another thread that uses it while the call runs, and it is never held while an action runs (only
/// `updateTuple`'s closure runs under it), so spinning with `sched_yield` is enough.
@usableFromInline
struct ProcessLock: ~Copyable {
    @usableFromInline let held = Atomic<Bool>(false)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    func lock() {
        while !held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            sched_yield()
        }
    }

    @inlinable @inline(__always)
    func unlock() {
        held.store(false, ordering: .releasing)
    }

    /// Orders what follows after every earlier critical section, without holding the lock: for a caller that
    /// knows nobody else can take the lock any more (see ``ActionProcess``), and so that the thread sanitizer sees
    /// that order too.
    @inlinable @inline(__always)
    func synchronize() {
        _ = held.load(ordering: .acquiring)
    }

    @inlinable @inline(__always)
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }
}
