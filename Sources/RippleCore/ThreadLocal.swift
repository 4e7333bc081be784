#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Per-thread storage of one object, backed by `pthread_getspecific`.
///
/// `Thread.current.threadDictionary` costs ~140 ns a lookup on this toolchain; a pthread key costs a few. The node
/// engine keeps its per-thread propagation state (the re-entrancy FIFO) here. The stored object is retained while it
/// is set and released when the thread exits.
package final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // Written once in init, read-only afterwards.
    private var key = pthread_key_t()

    package init() {
        let status = pthread_key_create(&key, releaseThreadLocalValue)
        precondition(status == 0, "Ripple.ThreadLocal: pthread_key_create failed with \(status)")
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's value, or nil when it has none.
    package var value: Value? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            return Unmanaged<Value>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(key) {
                Unmanaged<AnyObject>.fromOpaque(old).release()
            }
            let raw = newValue.map { UnsafeMutableRawPointer(Unmanaged.passRetained($0).toOpaque()) }
            pthread_setspecific(key, raw)
        }
    }

    /// The calling thread's value, created with `make` the first time this thread asks.
    package func value(orMake make: () -> Value) -> Value {
        if let existing = value { return existing }
        let created = make()
        value = created
        return created
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
