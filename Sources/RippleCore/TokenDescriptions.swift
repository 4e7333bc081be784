// Invariants: a description reads only what the type's own thread-safe accessors read (`isCancelled`, `count`), so
// printing a token from any thread is as safe as asking it; it never runs the token's work.

extension ClosureCancelToken: CustomStringConvertible {
    /// `ClosureCancelToken(active)` or `ClosureCancelToken(cancelled)`.
    public var description: String {
        "ClosureCancelToken(\(isCancelled ? "cancelled" : "active"))"
    }
}

extension CancelBag: CustomStringConvertible {
    /// `CancelBag(3 entries, active)`; entries cancelled elsewhere are counted until the bag prunes them.
    public var description: String {
        let entries = count
        return "CancelBag(\(entries) \(entries == 1 ? "entry" : "entries"), \(isCancelled ? "cancelled" : "active"))"
    }
}
