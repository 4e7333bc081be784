/// A cancellable that runs a closure the first time it is cancelled, and never again.
///
/// `@unchecked Sendable`: `action` is read and written only under `lock` (both inline, so a cancellable is one object
/// plus the closure's context).
public final class ClosureCancelToken: CancelToken, @unchecked Sendable {
    private let lock = RawLock()
    @exclusivity(unchecked) private var action: (@Sendable () -> Void)?

    /// - Parameter action: what cancelling does; it runs exactly once, on the thread that cancels first.
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
    }

    public func cancel() {
        // Take the action out under the lock so concurrent cancels race for it and exactly one wins;
        // run it after unlocking, since it is user code.
        lock.lock()
        let taken = action
        action = nil
        lock.unlock()
        taken?()
    }

    public var isCancelled: Bool {
        lock.withLock { action == nil }
    }
}
