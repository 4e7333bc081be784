#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RippleCore

let actionCounter = LiveObjectCounter("LifecycleAction")

/// One piece of behaviour injected into hosts' lifecycles — the seed's `DZViewControllerLifeCircleBaseAction`.
///
/// Subclass it and override the hooks you need; the base implementations do nothing, so calling `super` is
/// optional. Register an action globally (``LifecycleActions/registerGlobal(_:)``) to run it for every host, or on
/// one host (``LifecycleHost/registerLifecycleAction(_:)``).
///
/// ```swift
/// final class PageTrackingAction: LifecycleAction {
///     override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
///         Analytics.trackPageBegin(pageName(host))
///     }
///     override func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
///         Analytics.trackPageEnd(pageName(host))
///     }
/// }
/// ```
///
/// Two actions are equal, and hash alike, when their ``identifier``s are equal, whatever their class: registering an
/// equal action again returns the one already registered.
@MainActor
open class LifecycleAction {
    /// What makes this action itself: equality and hashing use it. A fresh UUID unless you pass one, e.g. a fixed
    /// name for an action that must be registered at most once per list.
    public nonisolated let identifier: String

    /// The host this action last saw appear and has not yet seen disappear.
    ///
    /// Set just before ``host(_:willAppear:)`` runs and cleared just after ``host(_:didDisappear:)`` returns for that
    /// same host. Weak: it never keeps a host alive.
    public internal(set) weak var liveHost: (any LifecycleHost)?

    /// - Parameter identifier: the action's identity; must not be empty.
    public init(identifier: String = UUID().uuidString) {
        if identifier.isEmpty {
            programmerError("LifecycleAction.init(identifier:) needs a non-empty identifier, got \"\"")
        }
        self.identifier = identifier
        actionCounter.increment()
    }

    deinit {
        actionCounter.decrement()
    }

    /// The host finished loading (`viewDidLoad`).
    open func hostDidLoad(_ host: any LifecycleHost) {}

    /// The host is about to appear (`viewWillAppear(_:)`). ``LifecycleAction/liveHost`` is already `host`.
    open func host(_ host: any LifecycleHost, willAppear animated: Bool) {}

    /// The host appeared (`viewDidAppear(_:)`).
    open func host(_ host: any LifecycleHost, didAppear animated: Bool) {}

    /// The host is about to disappear (`viewWillDisappear(_:)`).
    open func host(_ host: any LifecycleHost, willDisappear animated: Bool) {}

    /// The host disappeared (`viewDidDisappear(_:)`). ``LifecycleAction/liveHost`` is cleared after this returns.
    open func host(_ host: any LifecycleHost, didDisappear animated: Bool) {}

    /// Routes one event to the matching hook, keeping ``liveHost`` up to date around it.
    final func receive(_ event: LifecycleEvent, from host: any LifecycleHost) {
        switch event {
        case .didLoad:
            hostDidLoad(host)
        case .willAppear(let animated):
            liveHost = host
            self.host(host, willAppear: animated)
        case .didAppear(let animated):
            self.host(host, didAppear: animated)
        case .willDisappear(let animated):
            self.host(host, willDisappear: animated)
        case .didDisappear(let animated):
            self.host(host, didDisappear: animated)
            // Only this host leaves: a global action may already be live on the host that is replacing it.
            if liveHost === host {
                liveHost = nil
            }
        }
    }
}

extension LifecycleAction: Hashable {
    public nonisolated static func == (lhs: LifecycleAction, rhs: LifecycleAction) -> Bool {
        lhs.identifier == rhs.identifier
    }

    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}
