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
@usableFromInline
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

    /// The current value, or nil when empty. Call under `lock`.
    @inlinable
    final var storage: Value? {
        guard hasValue else { return nil }
        return withUnsafeMutablePointer(to: &valueBytes) { bytes in
            let raw = UnsafeMutableRawPointer(bytes)
            if Self.storesInline { return raw.assumingMemoryBound(to: Value.self).pointee }
            return unsafeDowncast(raw.load(as: Unmanaged<AnyObject>.self).takeUnretainedValue(),
                                  to: StoredValueBox<Value>.self).value
        }
    }

    /// Stores `new` (nil empties the node) and returns the previous value, to be released after unlocking (it may be
    /// a node whose deinit takes locks of its own). Call under `lock`.
    @inlinable
    final func replaceStorage(with new: Value?) -> Value? {
        let had = hasValue
        hasValue = new != nil
        return withUnsafeMutablePointer(to: &valueBytes) { bytes -> Value? in
            let raw = UnsafeMutableRawPointer(bytes)
            if Self.storesInline {
                let slot = raw.assumingMemoryBound(to: Value.self)
                let previous: Value? = had ? slot.move() : nil
                if let new { slot.initialize(to: new) }
                return previous
            }
            if had {
                let held = raw.load(as: Unmanaged<AnyObject>.self)
                let box = unsafeDowncast(held.takeUnretainedValue(), to: StoredValueBox<Value>.self)
                if let new {
                    var previous = new
                    swap(&box.value, &previous)
                    return previous
                }
                let previous = box.value
                held.release()
                return previous
            }
            if let new {
                raw.storeBytes(of: Unmanaged<AnyObject>.passRetained(StoredValueBox(new)), as: Unmanaged<AnyObject>.self)
            }
            return nil
        }
    }

    /// Destroys the held value when the node is freed: through `Value`'s metadata, with no look-up.
    final func destroyStoredValue() {
        guard hasValue else { return }
        hasValue = false
        withUnsafeMutablePointer(to: &valueBytes) { bytes in
            let raw = UnsafeMutableRawPointer(bytes)
            if Self.storesInline {
                raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
            } else {
                raw.load(as: Unmanaged<AnyObject>.self).release()
            }
        }
    }
}
