#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Per-thread storage of one object, backed by a pthread key.
///
/// `Thread.current.threadDictionary` costs ~140 ns a lookup on this toolchain; `pthread_getspecific` a few. The
/// stored object is retained while it is set and released when its thread exits. Hot paths read it with
/// ``unretained`` (no retain/release: the thread's key keeps the object alive while the thread runs and nothing
/// replaces it); it is `@usableFromInline` so a room's `@inlinable` path can read it from client code. Keep one
/// instance per purpose in a global `let`.
@usableFromInline
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // Immutable after init, so reads need no exclusivity check.
    @usableFromInline let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, releaseThreadLocalValue)
        precondition(status == 0, "Ripple.ThreadLocal: pthread_key_create failed with \(status)")
        self.key = key
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's object without retaining it, or nil when it has none. Valid while this thread runs and
    /// does not replace it.
    @inlinable @inline(__always)
    package var unretained: Unmanaged<Value>? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged.fromOpaque(raw)
    }

    /// The calling thread's object, unretained, created with `make` the first time this thread asks.
    @inlinable @inline(__always)
    package func unretained(orMake make: () -> Value) -> Unmanaged<Value> {
        if let existing = unretained { return existing }
        return install(make())
    }

    /// The calling thread's object, or nil when it has none.
    package var value: Value? {
        get { unretained?.takeUnretainedValue() }
        set {
            if let old = pthread_getspecific(key) {
                Unmanaged<AnyObject>.fromOpaque(old).release()
            }
            pthread_setspecific(key, newValue.map { UnsafeMutableRawPointer(Unmanaged.passRetained($0).toOpaque()) })
        }
    }

    /// The calling thread's object, created with `make` the first time this thread asks.
    package func value(orMake make: () -> Value) -> Value {
        unretained(orMake: make).takeUnretainedValue()
    }

    @usableFromInline
    func install(_ created: Value) -> Unmanaged<Value> {
        value = created
        return Unmanaged.passUnretained(created)
    }
}

#if canImport(Darwin)
private func releaseThreadLocalValue(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(raw).release()
}
#else
private func releaseThreadLocalValue(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<AnyObject>.fromOpaque(raw).release()
}
#endif
