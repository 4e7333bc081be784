/// Anything with a lifecycle that actions can attach to: a view controller, a terminal screen, a server session.
///
/// A host keeps its own actions in a ``LifecycleActionList`` it stores itself — one stored property:
///
/// ```swift
/// final class ChatScreen: LifecycleHost {
///     let lifecycleActions = LifecycleActionList()
/// }
/// ```
///
/// The list lives and dies with the host, so no global side table maps hosts to actions, nothing can outlive its
/// host, and no freed host's address can ever be mistaken for a new one's. ``LifecycleController`` already has one.
/// A host that cannot subclass ``LifecycleController`` reports its events with
/// ``LifecycleActions/dispatch(_:to:)``.
@MainActor
public protocol LifecycleHost: AnyObject {
    /// The host's own actions, and the registry whose global actions the host sees.
    var lifecycleActions: LifecycleActionList { get }
}

extension LifecycleHost {
    /// Adds `action` after the host's other actions, unless an equal action (same
    /// ``LifecycleAction/identifier``) is already registered: then nothing changes and that action is returned.
    ///
    /// - Returns: the action that is registered now — `action`, or the equal one registered before it.
    @discardableResult
    public func registerLifecycleAction(_ action: LifecycleAction) -> LifecycleAction {
        lifecycleActions.register(action)
    }

    /// Removes the action equal to `action` (same identifier) from the host's actions.
    ///
    /// - Returns: whether an action was removed.
    @discardableResult
    public func removeLifecycleAction(_ action: LifecycleAction) -> Bool {
        lifecycleActions.remove(action)
    }
}
