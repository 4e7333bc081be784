// Invariants: what an injected lifecycle method (UIKit's swizzled appearance methods) does after the original
// implementation is this file's code, shared with every platform and tested on Linux; only the exchange of method
// implementations (`UIKitInjection.swift`) is platform glue. An object that is itself a `LifecycleHost` reports its
// own events (the subclassing recipe of AttachingToUIKit.md), so the injected call leaves it alone: its actions never
// run twice.

/// The shared part of injecting lifecycle actions into objects that do not report their own events.
@MainActor
enum LifecycleInjection {
    /// Delivers `event`, reported by an injected method of `object`, to the host standing for it (`attachedHost`,
    /// made on first use) — unless `object` is a ``LifecycleHost``, which reports its own events.
    ///
    /// - Returns: whether the event was delivered.
    @discardableResult
    static func deliver(_ event: LifecycleEvent, from object: AnyObject,
                        attachedHost: () -> any LifecycleHost) -> Bool {
        if object is any LifecycleHost { return false }
        LifecycleActions.dispatch(event, to: attachedHost())
        return true
    }
}
