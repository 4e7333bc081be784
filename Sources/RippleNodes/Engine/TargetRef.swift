// How a transform and its slot in the upstream node's list refer to `to`: without owning it (downstream owns
// upstream, so the downward pointer must not), yet safely upgradable while another thread may be freeing it.
//
// Invariants:
// - `object` is a plain Swift `weak` reference: loading it yields a strong reference, or nil once the object has
//   begun deinitialising. No runtime entry point is looked up and no reference count is read (issue 29: engine 2
//   looked `swift_tryRetain` up in the process's symbol table, outside what Swift promises).
// - Immutable after init: a new `to` means a new slot (see `Transform.reconcileRegistration()`).
//
// Cost (callgrind, BENCHMARKS.md "RippleNodes on safe Swift"): the weak reference gives its object a side table,
// and a weak load is a locked instruction, like the `swift_tryRetain` it replaces.

/// A non-owning reference to `to` that upgrades to a strong one while the object is alive.
@usableFromInline
package struct TargetRef: @unchecked Sendable {
    // `@unchecked Sendable`: a weak reference loads atomically, and the field is never written after init.
    @usableFromInline weak var object: AnyObject?
    /// The object's address, compared (never dereferenced) to tell whether a slot still points at a given node.
    @usableFromInline let address: UnsafeMutableRawPointer

    package init(_ object: AnyObject) {
        self.object = object
        address = Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object, retained (the caller releases it), or nil once it has begun deinitialising.
    @inlinable @inline(__always)
    package func retained() -> Unmanaged<AnyObject>? {
        guard let object else { return nil }
        return .passRetained(object)
    }
}
