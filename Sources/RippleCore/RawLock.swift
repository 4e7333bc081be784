#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The mutex primitive itself: a `pthread_mutex_t` (`os_unfair_lock` on Apple platforms) behind a pointer, so it
/// never moves, held by a non-copyable struct that frees it in its `deinit`.
///
/// This is the one place the lock primitive is chosen. Measured here (swiftc -O, Swift 6.3 on Linux x86_64, 20M
/// uncontended lock/unlock pairs): pthread_mutex ~7.5 ns a pair, `Synchronization.Mutex` ~17.6 ns.
///
/// Rooms store it directly in their hot objects (`let lock = RawLock()`), which saves the extra object and pointer
/// hop of ``Lock``; it is `@usableFromInline` so a room's `@inlinable` per-value path, specialised in the client's
/// module, can take it.
///
/// Never call user code or a downstream while holding it: snapshot under the lock, unlock, then call out.
@usableFromInline
package struct RawLock: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @inlinable
    package init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(primitive, nil)
        precondition(status == 0, "Ripple.RawLock: pthread_mutex_init failed with \(status)")
        #endif
    }

    @inlinable
    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inlinable @inline(__always)
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
