// A stand-in for Apple's Darwin module on Linux, only to typecheck Ripple's `#if canImport(Darwin)` branches.
// Every declaration copies the signature Swift imports from the macOS 15 / iOS 18 SDK headers.
@_exported import Glibc

// <os/lock.h>
public struct os_unfair_lock_s {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
    public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}
public typealias os_unfair_lock = os_unfair_lock_s
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) {}
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) {}
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { true }

// <pthread.h>: pthread_t is a pointer, pthread_key_t an unsigned long, and the key destructor takes a non-optional
// pointer.
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public typealias pthread_key_t = UInt
@discardableResult public func pthread_self() -> pthread_t { fatalError() }
@discardableResult public func pthread_equal(_ a: pthread_t!, _ b: pthread_t!) -> Int32 { 0 }
@discardableResult public func pthread_key_create(_ key: UnsafeMutablePointer<pthread_key_t>,
                               _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?) -> Int32 { 0 }
@discardableResult public func pthread_key_delete(_ key: pthread_key_t) -> Int32 { 0 }
@discardableResult public func pthread_getspecific(_ key: pthread_key_t) -> UnsafeMutableRawPointer? { nil }
@discardableResult public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 { 0 }
