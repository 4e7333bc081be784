import RippleCore
import Synchronization

/// Ends a subscription or releases what a signal's action set up. Idempotent and thread-safe.
///
/// A signal's action returns `Disposer { … }` with its cleanup; ``Signal/subscribe(value:error:complete:)`` returns a
/// disposer that ends the subscription. Either way the work runs at most once, on the first thread that disposes.
///
/// Not `final`: inside this module a subscription's shared state (`SubscriptionCore`) and an operator's
/// per-subscription state (`CompletionGroup`) are disposers themselves, overriding ``dispose()`` and
/// ``isDisposed``, so handing one out as a disposer allocates nothing (no wrapper object, no closure).
public class Disposer: CancelToken, @unchecked Sendable {
    // `action` is written in `init` and then only by the one thread that flipped `disposed` (which takes it).
    // No lock: a disposer is made per subscription.
    private let disposed = Atomic<Bool>(false)
    private var action: (@Sendable () -> Void)?

    /// A disposer that runs `action` the first time it is disposed. (Subclasses call `init()`: the default action
    /// captures nothing, so it allocates nothing, and they override ``dispose()`` anyway.)
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
    }

    /// A disposer with nothing to release.
    public static var empty: Disposer { Disposer() }

    /// One shared disposer with nothing to release, for internal sources that hold no resources: it is only ever
    /// handed to a subscriber or an operator as a cleanup, never returned to a caller, so its shared `isDisposed`
    /// is never observed.
    @usableFromInline static let nothing = Disposer()

    /// One shared disposer that is already disposed: what attaching to a `just` returns, since that subscription
    /// has ended by the time it is returned. Disposing it again does nothing.
    @usableFromInline static let ended: Disposer = {
        let disposer = Disposer()
        disposer.dispose()
        return disposer
    }()

    /// Runs the cleanup, once. Later calls, from any thread, do nothing.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let taken = action
        action = nil
        taken?()
    }

    /// Whether the cleanup has run, or the subscription has ended (terminal event, disposal, or released).
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    public func cancel() {
        dispose()
    }

    public var isCancelled: Bool {
        isDisposed
    }
}
