// How a node holds its value: raw bytes inside the node, with a flag, rather than a stored `Value?`.
//
// A stored `Value?` makes the node's compiler-generated destroyer look up `Optional<Value>`'s generic metadata
// whenever a node is freed (deinit runs unspecialised): ~370 of the ~4,100 instructions of creating, setting and
// freeing a node. Raw bytes are trivial to destroy; `deinit` destroys the value through `Value`'s own metadata, which
// the node's class metadata already holds. A value too large for the bytes lives in a `StoredValueBox`, kept across
// sets (replaced in place), so only a set on an empty node allocates.

/// The raw room for a node's value, inline in the node.
@usableFromInline
typealias StoredValueBytes = (UInt, UInt, UInt, UInt)

/// A value too large for ``StoredValueBytes``; the bytes hold it retained, as an `Unmanaged<AnyObject>`.
@usableFromInline @_fixed_layout
final class StoredValueBox<Value> {
    @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

extension Node {
    /// Whether `Value` fits in the node's bytes; otherwise they hold a ``StoredValueBox``. Folds away specialised.
    @inlinable
    static var storesInline: Bool {
        MemoryLayout<Value>.size <= MemoryLayout<StoredValueBytes>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<StoredValueBytes>.alignment
    }

    /// Runs `body` with the address of the node's value bytes.
    // `body` returns nothing, so `withUnsafeMutablePointer` is fully concrete and inlines even where `Value` is not
    // (a pack-generic `combine` runs the engine unspecialised).
    @inlinable @inline(__always)
    final func withValueBytes(_ body: (UnsafeMutableRawPointer) -> Void) {
        withUnsafeMutablePointer(to: &valueBytes) { body(UnsafeMutableRawPointer($0)) }
    }

    /// The current value, or nil when empty. Call under `lock`.
    @inlinable
    final var storage: Value? {
        guard hasValue else { return nil }
        var current: Value? = nil
        withValueBytes { raw in
            if Self.storesInline {
                current = raw.assumingMemoryBound(to: Value.self).pointee
            } else {
                current = unsafeDowncast(raw.load(as: Unmanaged<AnyObject>.self).takeUnretainedValue(),
                                         to: StoredValueBox<Value>.self).value
            }
        }
        return current
    }

    /// Copies the current value to `target` (uninitialised) and returns true, or returns false when empty. Call under
    /// `lock`. Unlike ``storage``, no `Value?`: the unspecialised link paths read values without a metadata look-up.
    @inlinable
    final func copyStoredValue(to target: UnsafeMutablePointer<Value>) -> Bool {
        guard hasValue else { return false }
        withValueBytes { raw in
            if Self.storesInline {
                target.initialize(to: raw.assumingMemoryBound(to: Value.self).pointee)
            } else {
                target.initialize(to: unsafeDowncast(raw.load(as: Unmanaged<AnyObject>.self).takeUnretainedValue(),
                                                     to: StoredValueBox<Value>.self).value)
            }
        }
        return true
    }

    /// Stores a copy of `value`; when the node held a value, hands it back in `value` and returns true. Either way
    /// the caller releases `value` after unlocking (the old value may be a node whose deinit takes locks of its own).
    /// No `Optional<Value>` anywhere: unspecialised, every `Value?` costs a metadata look-up. Call under `lock`.
    @inlinable
    final func exchangeValue(_ value: inout Value) -> Bool {
        let had = hasValue
        hasValue = true
        withValueBytes { raw in
            if Self.storesInline {
                let slot = raw.assumingMemoryBound(to: Value.self)
                if had { swap(&slot.pointee, &value) } else { slot.initialize(to: value) }
            } else if had {
                let box = unsafeDowncast(raw.load(as: Unmanaged<AnyObject>.self).takeUnretainedValue(),
                                         to: StoredValueBox<Value>.self)
                swap(&box.value, &value)
            } else {
                raw.storeBytes(of: Unmanaged<AnyObject>.passRetained(StoredValueBox(value)),
                               as: Unmanaged<AnyObject>.self)
            }
        }
        return had
    }

    /// Empties the node and returns what it held, to be released after unlocking. Call under `lock`.
    @inlinable
    final func removeStoredValue() -> Value? {
        guard hasValue else { return nil }
        hasValue = false
        var previous: Value? = nil
        withValueBytes { raw in
            if Self.storesInline {
                previous = raw.assumingMemoryBound(to: Value.self).move()
            } else {
                let held = raw.load(as: Unmanaged<AnyObject>.self)
                previous = unsafeDowncast(held.takeUnretainedValue(), to: StoredValueBox<Value>.self).value
                held.release()
            }
        }
        return previous
    }

    /// Destroys the held value when the node is freed: through `Value`'s metadata, with no look-up.
    final func destroyStoredValue() {
        guard hasValue else { return }
        hasValue = false
        // A trivial value (an `Int`) needs no destroying: asking the metadata is cheaper than the generic
        // `deinitialize` (~50 instructions a freed node: this runs unspecialised, in `deinit`).
        if Self.storesInline && _isPOD(Value.self) { return }
        withValueBytes { raw in
            if Self.storesInline {
                raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
            } else {
                raw.load(as: Unmanaged<AnyObject>.self).release()
            }
        }
    }
}
