import RippleCore

/// The spelled-out `combineLatest` states (two and four inputs): which inputs have sent a value and which have
/// completed, as bit sets, and the rule for when the result completes. The typed slots stay in each subclass.
/// `@unchecked Sendable`: the bit sets are guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
class LatestSlotsState<Output: Sendable, Failure: Error>: AttachedInputsState<Output, Failure>, @unchecked Sendable {
    /// One bit per input, all set; a subclass overrides it with its constant (a `final` subclass reads it
    /// statically on the per-value path).
    @usableFromInline class var allInputs: Int { 0 }
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    /// Bit `i` is set once input `i` has sent a value.
    @usableFromInline @exclusivity(unchecked) final var present = 0
    /// Bit `i` is set once input `i` has completed.
    @usableFromInline @exclusivity(unchecked) final var completedInputs = 0

    /// `offset` rounded up to `T`'s alignment: where the next slot of the subclass's one raw buffer goes.
    @inlinable
    static func aligned<T>(_ offset: Int, for _: T.Type) -> Int {
        let alignment = MemoryLayout<T>.alignment
        return (offset + alignment - 1) / alignment * alignment
    }

    /// Input `input` sent `value`, for its typed `slot`. Always inlined, so that in a `final` subclass's callback
    /// the call to ``received()`` is direct.
    @inlinable @inline(__always)
    final func receive<T>(_ value: T, in slot: UnsafeMutablePointer<T>, input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        if present & (1 << input) != 0 {
            slot.pointee = value
        } else {
            slot.initialize(to: value)
            present |= 1 << input
        }
        received()
    }

    /// Called with `lock` held after an input stored a value; releases it. A subclass emits its tuple from its slots
    /// once every input has a value.
    @usableFromInline
    func received() {
        preconditionFailure("Ripple: LatestSlotsState.received() is overridden by every subclass")
    }

    /// Input `input` completed: the result completes if it never sent a value (no tuple can form) or if every input
    /// has completed. Always inlined, so that a `final` subclass's callback reads its constant `allInputs`.
    @inlinable @inline(__always)
    final func complete(input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        completedInputs |= 1 << input
        if present & (1 << input) == 0 || completedInputs == Self.allInputs {
            enqueueCompletion()
        }
        lock.unlock()
        flush()
    }
}
