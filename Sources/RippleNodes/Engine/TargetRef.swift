#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// How a transform and its slot in the upstream node's list refer to `to`: without owning it (downstream owns
// upstream, so the downward pointer must not), yet safely upgradable while another thread may be freeing it.
//
// A weak reference would do, but it gives its object a side table, and every later release of that object then takes
// the runtime's slow path: measured, the weak load and the slow releases were ~150 of a hop's ~470 instructions. An
// `unowned` reference keeps only the object's memory valid; the upgrade is the runtime's `swift_tryRetain` (the check
// a weak load makes: it fails once the object has begun deinitialising). The Swift compiler reserves runtime names
// for `@_silgen_name`, so the function is looked up once with `dlsym`; where the runtime's symbols are not visible (a
// statically linked standard library), references fall back to a weak one.

@usableFromInline
package typealias TryRetainFunction = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

/// `swift_tryRetain`: retains and returns the object, or returns nil when it is deinitialising.
package let runtimeTryRetain: TryRetainFunction? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "swift_tryRetain") else { return nil }
    return unsafeBitCast(symbol, to: TryRetainFunction.self)
}()

/// A non-owning reference to `to`: it keeps the object's memory (an unowned reference) and upgrades to a strong one
/// while the object is alive. One struct rather than a "hot" reference beside an anchor holding the memory: the two
/// repeated the object and the fallback box (64 bytes in every transform and every slot, now 32).
@usableFromInline
package struct TargetRef: @unchecked Sendable {
    // Immutable. `object` only keeps the memory valid: it is never upgraded through this field (that would trap on a
    // deinitialising object); `raw` is the same object as plain bits, read without reference counting.
    private unowned let object: AnyObject
    @usableFromInline let raw: Unmanaged<AnyObject>
    @usableFromInline let tryRetain: TryRetainFunction?
    /// The fallback (only where `swift_tryRetain` cannot be found), held strongly.
    @usableFromInline let box: WeakTargetBox?

    /// `tryRetain` is the runtime's unless a test forces the weak fallback with nil.
    package init(_ object: AnyObject, tryRetain: TryRetainFunction? = runtimeTryRetain) {
        self.object = object
        raw = .passUnretained(object)
        self.tryRetain = tryRetain
        box = tryRetain == nil ? WeakTargetBox(object) : nil
    }

    /// The object, retained (the caller releases it), or nil once it has begun deinitialising.
    @inlinable @inline(__always)
    package func retained() -> Unmanaged<AnyObject>? {
        if let tryRetain {
            return tryRetain(raw.toOpaque()) == nil ? nil : raw
        }
        return box.unsafelyUnwrapped.retained()
    }
}

/// The fallback where `swift_tryRetain` cannot be found. `@unchecked Sendable`: weak references load atomically.
@usableFromInline
final class WeakTargetBox: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }

    @usableFromInline
    func retained() -> Unmanaged<AnyObject>? {
        object.map { Unmanaged.passRetained($0) }
    }
}
