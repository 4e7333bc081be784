import Foundation
import RippleLifecycle
import RippleSignals

extension LifecycleHost {
    /// The host's lifecycle events as a signal: every event delivered to this host after subscribing, in order.
    ///
    /// ```swift
    /// let disposer = screen.lifecycleEvents
    ///     .filter { $0.phase == .didAppear }
    ///     .subscribe(value: { _ in print("on screen") })
    /// LifecycleActions.dispatch(.didAppear(animated: true), to: screen)   // "on screen"
    /// disposer.dispose()                                                // unregisters
    /// ```
    ///
    /// Each subscription registers a lifecycle action of its own on this host (see
    /// ``RippleLifecycle/LifecycleHost/registerLifecycleAction(_:)``), so an event reaches the subscriber after the
    /// host's own implementation, the global actions and the host actions registered earlier.
    ///
    /// **Isolation.** Lifecycle hosts and actions live on the main actor; signals run wherever they are subscribed.
    /// The bridge keeps every lifecycle call on the main actor:
    /// - subscribing on the main thread registers the action before `subscribe` returns, so no later event is
    ///   missed; subscribing on another thread (say through `subscribe(on:)`) schedules the registration on the
    ///   main actor, and events delivered before it runs are not seen;
    /// - events are sent on the main actor, where hosts receive them;
    /// - disposing unregisters the action: at once on the main thread, otherwise through the main actor. Either way
    ///   no event is delivered after `dispose()` returns.
    ///
    /// **Lifetime.** The subscription does not keep the host alive: the host keeps the action that forwards its
    /// events. When the host is freed, the signal completes (on the thread that freed the host). It never fails.
    public var lifecycleEvents: Signal<LifecycleEvent, Never> {
        let host = WeakHost(self)
        return Signal { subscriber in
            let registration = ForwardingRegistration()
            onMainActor {
                guard !subscriber.isDisposed else { return }
                guard let target = host.host else {
                    subscriber.sendComplete()
                    return
                }
                let action = EventForwardingAction(subscriber)
                target.registerLifecycleAction(action)
                registration.action = action
            }
            return Disposer {
                onMainActor {
                    guard let action = registration.action else { return }
                    registration.action = nil
                    host.host?.removeLifecycleAction(action)
                }
            }
        }
    }
}

/// Runs `body` on the main actor: now when already on the main thread, else as a main-actor task.
private func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread {
        MainActor.assumeIsolated { body() }
    } else {
        Task { @MainActor in body() }
    }
}

/// The host a lifecycle signal belongs to, held weakly: a signal never keeps its host alive.
@MainActor
private final class WeakHost {
    weak var host: (any LifecycleHost)?

    init(_ host: any LifecycleHost) {
        self.host = host
    }
}

/// The action one subscription registered, held weakly (the host owns it); touched only on the main actor.
@MainActor
private final class ForwardingRegistration {
    weak var action: EventForwardingAction?

    nonisolated init() {}
}

/// Sends every event of the host it is registered on to one subscriber; completes it when freed with the host.
@MainActor
private final class EventForwardingAction: LifecycleAction {
    private let subscriber: Subscriber<LifecycleEvent, Never>

    init(_ subscriber: Subscriber<LifecycleEvent, Never>) {
        self.subscriber = subscriber
        super.init()
    }

    deinit {
        // Freed with its host (a disposed subscription has already stopped accepting, so this is a no-op then).
        subscriber.sendComplete()
    }

    override func hostDidLoad(_ host: any LifecycleHost) {
        subscriber.send(.didLoad)
    }

    override func host(_ host: any LifecycleHost, willAppear animated: Bool) {
        subscriber.send(.willAppear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        subscriber.send(.didAppear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, willDisappear animated: Bool) {
        subscriber.send(.willDisappear(animated: animated))
    }

    override func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        subscriber.send(.didDisappear(animated: animated))
    }
}
