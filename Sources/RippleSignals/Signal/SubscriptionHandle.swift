// Invariants: a handle is held only by whoever called `subscribe` (never by the subscription itself), so its `deinit`
// runs exactly when the user lets go of it, and then ends the subscription it wraps (idempotently: disposing an
// ended subscription does nothing). A subscription that has already ended when `subscribe` returns needs no handle,
// and an operator's `WeakDisposer` is a fresh object nobody else holds, so it becomes the handle itself: the wrapper
// is only allocated over a subscriber's core (which the subscriber holds too, so its own release says nothing).

/// The disposer `subscribe` returns over a running subscription whose disposer is shared: disposing it, or
/// releasing it, disposes that subscription.
///
/// One object per user subscription (never per operator): callgrind, SubjectCreating 2,562 → 3,048 instructions
/// (a malloc, a free, the check in `subscriptionHandle`); MapFilterCreating (a chain ended while subscribing, so no
/// handle object) 4,963 → 4,961. See BENCHMARKS.md, "Subscription handles".
@usableFromInline
final class SubscriptionHandle: Disposer, @unchecked Sendable {
    // Written once in `init`.
    let subscription: Disposer

    init(_ subscription: Disposer) {
        self.subscription = subscription
        super.init()
    }

    deinit {
        // Most handles go after their subscription ended (disposed, or a terminal event): one atomic load then
        // saves `dispose()`'s lock and read-modify-write.
        if !subscription.isDisposed {
            subscription.dispose()
        }
    }

    override func dispose() {
        subscription.dispose()
    }

    override var isDisposed: Bool {
        subscription.isDisposed
    }
}

/// Makes `disposer` (what attaching a subscription returned) the user's handle: releasing it ends the subscription.
@usableFromInline
func subscriptionHandle(_ disposer: Disposer) -> Disposer {
    // Already ended (a `just`, a chain that completed while subscribing): nothing to end on release.
    if disposer.isDisposed {
        return disposer
    }
    if type(of: disposer) == WeakDisposer.self {
        // The exact type was just checked, so this cast is to the object's own class (a checked `as!` costs a
        // dynamic cast on every operator-ended subscription).
        unsafeDowncast(disposer, to: WeakDisposer.self).disposesOnRelease = true
        return disposer
    }
    return SubscriptionHandle(disposer)
}
