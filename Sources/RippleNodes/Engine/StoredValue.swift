// How a node holds its value: a stored `Value?` and a flag, both guarded by the node's lock.
//
// Invariant: `hasValue == (slot != nil)` whenever the lock is free. Engine 2 kept the value in a raw
// `(UInt, UInt, UInt, UInt)` tuple, read as a `Value` without binding the memory (outside Swift's typed-memory
// rules), to spare the unspecialised deinit a metadata look-up (~370 instructions per freed node); engine 3 pays
// that in exchange for plain typed storage.

import RippleCore

/// `{ $0.copyCurrentValue(to: $1) }`, written by an `@inlinable` operator where the node's type is concrete and passed
/// down to the link, which runs generic: there, copying the stored `Value?` looks up `Optional`'s metadata (~330
/// instructions per link). Written where the type is concrete, the closure captures nothing: no context to allocate.
@usableFromInline
typealias CurrentValueCopy<Value: Sendable> = (Node<Value>, UnsafeMutablePointer<Value>) -> Bool

extension Node {
    /// The current value, or nil when empty. Call under `lock`.
    @inlinable
    final var storage: Value? {
        hasValue ? slot : nil
    }

    /// Copies the current value to `target` (uninitialised) and returns true, or returns false when empty. Call under
    /// `lock`.
    @inlinable
    final func copyStoredValue(to target: UnsafeMutablePointer<Value>) -> Bool {
        guard hasValue, let current = slot else { return false }
        target.initialize(to: current)
        return true
    }

    /// ``copyStoredValue(to:)`` under `lock`. Inlinable: where `Value` is concrete, no metadata is looked up.
    @inlinable
    final func copyCurrentValue(to target: UnsafeMutablePointer<Value>) -> Bool {
        lock.lock()
        let held = copyStoredValue(to: target)
        lock.unlock()
        return held
    }

    /// Stores a copy of `value`; when the node held a value, hands it back in `value` and returns true. Either way
    /// the caller releases `value` after unlocking (the old value may be a node whose deinit takes locks of its own).
    /// Call under `lock`.
    @inlinable
    final func exchangeValue(_ value: inout Value) -> Bool {
        let had = hasValue
        hasValue = true
        let previous = slot
        slot = value
        if let previous { value = previous }
        return had
    }

    /// Empties the node and returns what it held, to be released after unlocking. Call under `lock`.
    @inlinable
    final func removeStoredValue() -> Value? {
        guard hasValue else { return nil }
        hasValue = false
        let previous = slot
        slot = nil
        return previous
    }

    /// The node is being freed: the value goes with the stored property.
    final func destroyStoredValue() {
        hasValue = false
    }
}
