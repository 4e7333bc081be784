// Invariants: a handle is held only by whoever called `subscribe` (never by the subscription itself), so its `deinit`
// runs exactly when the user lets go of it, and then ends the subscription it wraps (idempotently: disposing an
// ended subscription does nothing). A subscription that has already ended when `subscribe` returns needs no handle,
// and an operator's `WeakDisposer` is a fresh object nobody else holds, so it becomes the handle itself: the wrapper
// is only allocated over a subscriber's core (which the subscriber holds too, so its own release says nothing).
//
// Why an object at all over a core: something only the user holds must be freed for a release to be seen, and the
// core is shared with the subscriber (so that a handle never keeps the subscriber, and through its callbacks the
// user's objects, alive). Merging the core into the subscriber would make the handle own the callbacks (a cycle
// through any bag that `self` owns); a weak reference instead gives the subscriber a side table (every retain of it
// then takes the runtime's slow path). So the handle is one small object, made as cheaply as possible (see
// BENCHMARKS.md, "SubjectCreating and the handle").

/// The disposer `subscribe` returns over a running subscription whose disposer is shared: disposing it, or
/// releasing it, disposes that subscription.
///
/// One object per user subscription (never per operator): callgrind, SubjectCreating 2,562 → 3,048 instructions
/// when it wrapped any `Disposer` (a malloc, a free, the checks in `subscriptionHandle`); typed over the core and
/// built directly by the action path, 2,879 (main on this machine: 3,036); see BENCHMARKS.md, "SubjectCreating
/// and the handle".
@usableFromInline
final class SubscriptionHandle: Disposer, @unchecked Sendable {
    // Written once in `init`. Typed as the final class, so `deinit`, `dispose` and `isDisposed` call it directly.
    let core: SubscriptionCore

    init(_ core: SubscriptionCore) {
        self.core = core
        super.init()
    }

    deinit {
        // Most handles go after their subscription ended (disposed, or a terminal event): one atomic load then
        // saves `dispose()`'s lock and read-modify-write.
        if !core.isClosed {
            core.dispose()
        }
    }

    override func dispose() {
        core.dispose()
    }

    override var isDisposed: Bool {
        core.isClosed
    }
}

/// The handle over `core`, the disposer of a subscription made with an action: `core` itself when that subscription
/// already ended (nothing to end on release), else a `SubscriptionHandle`.
// Not inlinable: inlined into `subscribe`, it made the optimiser give up folding the chains over `just` (callgrind,
// MapFilterCreating 4,958 → 10,241, FlatMapsCreating 6,374 → 9,384) for 10 instructions on SubjectCreating.
@usableFromInline
func subscriptionHandle(over core: SubscriptionCore) -> Disposer {
    if core.isClosed {
        return core
    }
    return SubscriptionHandle(core)
}

/// Makes `disposer` (what attaching a subscription returned) the user's handle: releasing it ends the subscription.
@usableFromInline
func subscriptionHandle(_ disposer: Disposer) -> Disposer {
    // Already ended (a `just`, a chain that completed while subscribing): nothing to end on release.
    if disposer.isDisposed {
        return disposer
    }
    let type = type(of: disposer)
    if type == WeakDisposer.self {
        // Its dynamic type is exactly `WeakDisposer` (just compared), so this downcast is to the object's own class
        // (a checked `as!` costs a dynamic cast on every operator-ended subscription).
        #if RIPPLE_INTERNAL_CHECKS
        precondition(disposer is WeakDisposer, "Ripple internal check: subscriptionHandle downcast a \(type)")
        #endif
        unsafeDowncast(disposer, to: WeakDisposer.self).disposesOnRelease = true
        return disposer
    }
    if type == SubscriptionCore.self {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(disposer is SubscriptionCore, "Ripple internal check: subscriptionHandle downcast a \(type)")
        #endif
        return SubscriptionHandle(unsafeDowncast(disposer, to: SubscriptionCore.self))
    }
    return DisposerHandle(disposer)
}

/// The handle over any other running subscription's disposer (an operator's state that hands itself out).
final class DisposerHandle: Disposer, @unchecked Sendable {
    // Written once in `init`.
    let subscription: Disposer

    init(_ subscription: Disposer) {
        self.subscription = subscription
        super.init()
    }

    deinit {
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
