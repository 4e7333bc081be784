import RippleCore

/// Ends a subscription or releases what a signal's action set up. Idempotent and thread-safe.
///
/// A signal's action returns `Disposer { … }` with its cleanup; ``Signal/subscribe(value:error:complete:)`` returns a
/// disposer that ends the subscription. Either way the work runs at most once, on the first thread that disposes.
public final class Disposer: Cancellable, @unchecked Sendable {
    // `action` and `disposed` are guarded by `lock`; `subscription` is a `weak let`, safe to read from any thread.
    private let lock = Lock()
    private var action: (@Sendable () -> Void)?
    private var disposed = false
    private weak let subscription: (any SubscriptionHandle)?
    private let isSubscriptionHandle: Bool

    /// A disposer that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
        subscription = nil
        isSubscriptionHandle = false
    }

    /// A disposer that ends `subscription`, without keeping it alive.
    init(subscription: any SubscriptionHandle) {
        self.subscription = subscription
        isSubscriptionHandle = true
    }

    /// A disposer with nothing to release.
    public static var empty: Disposer { Disposer() }

    /// Runs the cleanup, once. Later calls, from any thread, do nothing.
    public func dispose() {
        if isSubscriptionHandle {
            subscription?.dispose()
            lock.withLock { disposed = true }
            return
        }
        let taken = lock.withLock { () -> (@Sendable () -> Void)? in
            disposed = true
            defer { action = nil }
            return action
        }
        taken?()
    }

    /// Whether the cleanup has run, or the subscription has ended (terminal event, disposal, or released).
    public var isDisposed: Bool {
        if isSubscriptionHandle {
            guard let subscription else { return true }
            return subscription.isDisposed || lock.withLock { disposed }
        }
        return lock.withLock { disposed }
    }

    public func cancel() {
        dispose()
    }

    public var isCancelled: Bool {
        isDisposed
    }
}

/// What a subscription-backed ``Disposer`` points at: a ``Subscriber``.
protocol SubscriptionHandle: AnyObject, Sendable {
    func dispose()
    var isDisposed: Bool { get }
}
