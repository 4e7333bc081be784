// How a transform and its slot in the upstream node's list refer to `to`: without owning it (downstream owns
// upstream, so the downward pointer must not), yet safely upgradable while another thread may be freeing it.
//
// Invariants:
// - `object` is a plain Swift `weak` reference: loading it yields a strong reference, or nil once the object has
//   begun deinitialising. No runtime entry point is looked up and no reference count is read (issue 29: engine 2
//   looked `swift_tryRetain` up in the process's symbol table, outside what Swift promises).
// - Immutable after init: a new `to` means a new slot (see `Transform.reconcileRegistration()`).
// - `serial` is the object's `Node.serial`: a slot whose target died keeps it, and no node made later has it.
//
// Cost (callgrind, BENCHMARKS.md "RippleNodes on safe Swift"): the weak reference gives its object a side table,
// and a weak load is a locked instruction, like the `swift_tryRetain` it replaces.

/// A non-owning reference to `to` that upgrades to a strong one while the object is alive.
@usableFromInline
package struct TargetRef: @unchecked Sendable {
    // `@unchecked Sendable`: a weak reference loads atomically, and the field is never written after init.
    @usableFromInline weak var object: AnyObject?
    /// The node's ``Node/serial``, compared to tell whether this points at a given node: unlike its address, no
    /// other node ever has it, even once this one is freed.
    @usableFromInline let serial: UInt64

    package init(_ object: AnyObject, serial: UInt64) {
        self.object = object
        self.serial = serial
    }

    /// The object, retained (the caller releases it), or nil once it has begun deinitialising.
    @inlinable @inline(__always)
    package func retained() -> Unmanaged<AnyObject>? {
        guard let object else { return nil }
        return .passRetained(object)
    }
}
