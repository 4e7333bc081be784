// Invariants: holds an operator's state without owning it, so the disposer an operator hands downstream never keeps
// its state — and through it the downstream's callbacks — alive (the ownership rule of every multi-input operator,
// see `CombiningState`). Once the state is freed (every producer let go of its subscriber), the subscription has
// ended: disposing does nothing and `isDisposed` is true. When it is the handle `subscribe` returned
// (`disposesOnRelease`, set before it is handed out), releasing it disposes the state, as releasing any handle does.

/// A disposer that forwards to an operator's per-subscription state while that state lives.
///
/// A Swift `weak` reference: reading it while another thread frees the state yields nil, never a freed object. Made
/// only for a subscription still running once it has been set up (one that ended while subscribing hands out
/// `Disposer.ended`), so the side table a weak reference gives its target is paid there alone.
@usableFromInline
final class WeakDisposer: Disposer, @unchecked Sendable {
    // Written once in `init`; reading a weak reference is thread-safe.
    @exclusivity(unchecked) private weak var target: Disposer?
    /// Set by `subscriptionHandle(_:)` before the user gets this disposer, never after.
    @exclusivity(unchecked) var disposesOnRelease = false

    @usableFromInline
    init(_ target: Disposer) {
        self.target = target
        super.init()
    }

    deinit {
        if disposesOnRelease {
            target?.dispose()
        }
    }

    override func dispose() {
        target?.dispose()
    }

    override var isDisposed: Bool {
        target?.isDisposed ?? true
    }
}
