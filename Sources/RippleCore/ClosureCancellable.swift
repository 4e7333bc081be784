/// A cancellable that runs a closure the first time it is cancelled, and never again.
public final class ClosureCancellable: Cancellable {
    private let action: Locked<(@Sendable () -> Void)?>

    /// - Parameter action: what cancelling does; it runs exactly once, on the thread that cancels first.
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = Locked(action)
    }

    public func cancel() {
        // Take the action out under the lock so concurrent cancels race for it and exactly one wins;
        // run it after unlocking, since it is user code.
        let taken = action.withLock { stored -> (@Sendable () -> Void)? in
            defer { stored = nil }
            return stored
        }
        taken?()
    }

    public var isCancelled: Bool {
        action.withLock { $0 == nil }
    }
}
