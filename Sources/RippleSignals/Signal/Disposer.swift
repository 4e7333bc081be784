import RippleCore
import Synchronization

/// Ends a subscription or releases what a signal's action set up. Idempotent and thread-safe.
///
/// A signal's action returns `Disposer { … }` with its cleanup; ``Signal/subscribe(value:error:complete:)`` returns a
/// disposer that ends the subscription. Either way the work runs at most once, on the first thread that disposes.
public final class Disposer: Cancellable, @unchecked Sendable {
    // `action` is written in `init` and then only by the one thread that flipped `disposed` (which takes it);
    // `subscription` is immutable. No lock: a disposer is made per subscription.
    private let disposed = Atomic<Bool>(false)
    private var action: (@Sendable () -> Void)?
    private let subscription: (any DisposableResource)?
    private let isSubscriptionHandle: Bool

    /// A disposer that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
        subscription = nil
        isSubscriptionHandle = false
    }

    /// A disposer that ends `subscription`, without keeping its subscriber alive (it holds only the shared core).
    init(subscription: SubscriptionCore) {
        self.subscription = subscription
        isSubscriptionHandle = true
    }

    /// A disposer that disposes `resource`, an operator's per-subscription state, without a closure around it.
    init(resource: some DisposableResource) {
        subscription = resource
        isSubscriptionHandle = true
    }

    /// A disposer with nothing to release.
    public static var empty: Disposer { Disposer() }

    /// One shared disposer with nothing to release, for internal sources that hold no resources: it is only ever
    /// handed to a subscriber or an operator as a cleanup, never returned to a caller, so its shared `isDisposed`
    /// is never observed.
    @usableFromInline static let nothing = Disposer()

    /// Runs the cleanup, once. Later calls, from any thread, do nothing.
    public func dispose() {
        if isSubscriptionHandle {
            subscription?.dispose()
            disposed.store(true, ordering: .releasing)
            return
        }
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = action
        action = nil
        taken?()
    }

    /// Whether the cleanup has run, or the subscription has ended (terminal event, disposal, or released).
    public var isDisposed: Bool {
        if isSubscriptionHandle {
            guard let subscription else { return true }
            return subscription.isClosed || disposed.load(ordering: .acquiring)
        }
        return disposed.load(ordering: .acquiring)
    }

    public func cancel() {
        dispose()
    }

    public var isCancelled: Bool {
        isDisposed
    }
}

/// Something a ``Disposer`` can end directly, saving the closure (and its allocation) that `Disposer { … }` needs.
/// `dispose()` must be idempotent and thread-safe.
protocol DisposableResource: AnyObject, Sendable {
    func dispose()
    /// True once events sent now would be ignored (a subscription's terminal event), besides disposal.
    var isClosed: Bool { get }
}

extension SubscriptionCore: DisposableResource {}
