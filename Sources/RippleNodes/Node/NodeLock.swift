#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The primitive of RippleCore's `Lock`, as a struct the engine's `@inlinable` hot path can reach.
///
/// RippleCore's `Lock` is `package`, so code inlined into a client package (where `Node<Int>` gets specialised)
/// cannot name it. This is the same pthread mutex (`os_unfair_lock` on Apple platforms) held through a pointer;
/// its owner calls ``destroy()`` in its deinit.
@usableFromInline
struct NodeLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @usableFromInline
    init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(primitive, nil)
        precondition(status == 0, "RippleNodes.NodeLock: pthread_mutex_init failed with \(status)")
        #endif
    }

    /// Frees the mutex; only the owner's deinit calls this, when no one else can reach the owner.
    func destroy() {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
