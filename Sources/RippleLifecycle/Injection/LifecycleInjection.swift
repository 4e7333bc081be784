import RippleCore

// Invariants: what an injected lifecycle method (UIKit's swizzled appearance methods) does after the original
// implementation is this file's code, shared with every platform and tested on Linux; only the exchange of method
// implementations (`UIKitInjection.swift`) is platform glue. An object that is itself a `LifecycleHost` reports its
// own events (the subclassing recipe of AttachingToUIKit.md), so the injected call leaves it alone: its actions never
// run twice. The installation runs its body at most once per process, whichever threads race to call it.

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

/// Runs an installation once per process, thread-safely: the first caller runs it (under the lock, so a racing
/// caller returns only after it finished), every later caller does nothing.
final class InstallOnce: Sendable {
    private let done = Locked(false)

    init() {}

    /// Runs `body` if no call ran it before. Returns whether this call ran it.
    @discardableResult
    func run(_ body: () -> Void) -> Bool {
        done.withLock { done in
            guard !done else { return false }
            body()
            done = true
            return true
        }
    }

    var hasRun: Bool {
        done.value
    }
}
