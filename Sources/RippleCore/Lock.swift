/// The lock every Ripple type uses, as a shareable object: a ``RawLock`` (the one place the primitive is chosen).
///
/// Use it where a lock is shared between objects or captured by closures; hot objects store a ``RawLock`` directly.
/// Never call user code or a downstream while holding it: snapshot under the lock, unlock, then call out.
@usableFromInline
package final class Lock: @unchecked Sendable {
    @usableFromInline let raw = RawLock()

    // Not inlinable: under library evolution a class's inlinable initializer must delegate to a non-inlinable one.
    // Building a `Lock` allocates anyway; the call is noise beside that (no per-unit callgrind figure moved).
    @usableFromInline
    package init() {}

    @inlinable @inline(__always)
    package func lock() {
        raw.lock()
    }

    @inlinable @inline(__always)
    package func unlock() {
        raw.unlock()
    }

    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        raw.lock()
        defer { raw.unlock() }
        return try body()
    }
}
