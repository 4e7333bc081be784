#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The mutex primitive itself, held by a non-copyable struct that its owner stores inline.
///
/// This is the one place the lock primitive is chosen.
/// - Linux: one `Atomic<UInt32>` word stored inline in the owning object — taken with an inline compare-and-swap,
///   released with a releasing store behind a call the optimiser cannot see into (see `releaseWord()`). No
///   allocation, no initialisation call. A waiter re-reads the word a few times and then yields its processor
///   (`sched_yield`) until the word is free: every Ripple critical section is a few loads and stores (the rule
///   below), so a holder is off its processor only when pre-empted, which the yield gives back.
/// - Apple platforms: `os_unfair_lock` behind a pointer (it must not move), which donates priority to the holder,
///   something a spinning waiter cannot do.
///
/// Measured here (swiftc -O, Swift 6.3.1 on Linux x86_64, 20 million uncontended lock/unlock pairs in a loop): this
/// word ~4.3 ns a pair, `Synchronization.Mutex` ~9.7 ns, the malloc'd `pthread_mutex_t` it replaced ~11.3 ns — and
/// that one also cost a malloc, `pthread_mutex_init`, `pthread_mutex_destroy` and a free per lock (one per node,
/// transform, subscription and flattenMap level).
///
/// Rooms store it directly in their hot objects (`let lock = RawLock()`); it is `@usableFromInline` so a room's
/// `@inlinable` per-value path, specialised in the client's module, can take it.
///
/// Never call user code or a downstream while holding it: snapshot under the lock, unlock, then call out.
///
/// `@frozen`: rooms store it inline and take it from `@inlinable` code; with library evolution (a binary framework)
/// the layout must be fixed for that, and for the inlinable `init` to set the fields directly.
@usableFromInline @frozen
package struct RawLock: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>

    @inlinable
    package init() {
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock())
    }

    @inlinable
    deinit {
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inlinable @inline(__always)
    package func lock() {
        os_unfair_lock_lock(primitive)
    }

    @inlinable @inline(__always)
    package func unlock() {
        os_unfair_lock_unlock(primitive)
    }

    /// Takes the lock if it is free, without waiting.
    @inlinable @inline(__always)
    package func tryLock() -> Bool {
        os_unfair_lock_trylock(primitive)
    }
    #else
    /// 0 free, 1 held.
    @usableFromInline let word: Atomic<UInt32>

    @inlinable
    package init() {
        word = Atomic(0)
    }

    @inlinable @inline(__always)
    package func lock() {
        if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended()
        }
    }

    @inlinable @inline(__always)
    package func unlock() {
        releaseWord()
    }

    /// The releasing store, behind a call the optimiser cannot see into. Inline, the optimiser did not treat the store
    /// as a barrier and sank the retain of a reference read under the lock below it: `lock(); let x = field;
    /// unlock(); return x` retained `x` after the unlock, when a writer could already have released it (a `Domain`
    /// freed and then retained, in release builds; found in RippleNodes' cross-domain tests). A call that may release
    /// anything keeps every such retain above it. Cost measured in BENCHMARKS.md (fifth session).
    @usableFromInline @inline(never)
    func releaseWord() {
        word.store(0, ordering: .releasing)
    }

    /// Takes the lock if it is free, without waiting.
    @inlinable @inline(__always)
    package func tryLock() -> Bool {
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Re-reads the word (no bus-locking write while it is held) and yields the processor between rounds.
    @usableFromInline @inline(never)
    func lockContended() {
        var rounds = 0
        while true {
            if word.load(ordering: .relaxed) == 0
                && word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            rounds += 1
            if rounds >= 16 {
                sched_yield()
            }
        }
    }
    #endif

    /// Orders what follows after every earlier critical section, without holding the lock afterwards: for an owner
    /// that knows nobody else can take the lock any more (RipplePipes' pooled processes), and so that the thread
    /// sanitizer sees that order too.
    @inlinable @inline(__always)
    package func synchronize() {
        #if canImport(Darwin)
        lock()
        unlock()
        #else
        _ = word.load(ordering: .acquiring)
        #endif
    }

    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
