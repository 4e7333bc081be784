/// The registry of global actions — actions that run for every host that sees it — and the entry point that
/// delivers lifecycle events.
///
/// ```swift
/// LifecycleActions.registerGlobal(PageTrackingAction())      // DZVCRegisterGlobalAction
/// LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
/// ```
///
/// The static members act on ``shared``. Separate instances exist for isolation: a host created with
/// `LifecycleActionList(globals: registry)` (or `LifecycleController(globals: registry)`) sees that registry's
/// globals instead of the shared ones, which is how tests running in parallel keep their global actions apart.
@MainActor
public final class LifecycleActions {
    /// The registry every host sees unless it was given another.
    public static let shared = LifecycleActions()

    private var globals = OrderedActions()

    /// A registry of its own, independent of ``shared``.
    public init() {}

    /// This registry's global actions, in registration order.
    public var actions: [LifecycleAction] {
        globals.actions
    }

    /// Adds a global action after the others, unless an equal one (same identifier) is registered: then nothing
    /// changes and that one is returned.
    @discardableResult
    public func register(_ action: LifecycleAction) -> LifecycleAction {
        globals.register(action)
    }

    /// Removes the global action equal to `action`; returns whether there was one.
    @discardableResult
    public func remove(_ action: LifecycleAction) -> Bool {
        globals.remove(action)
    }

    /// The shared registry's global actions, in registration order.
    public static var globalActions: [LifecycleAction] {
        shared.actions
    }

    /// Registers `action` in the shared registry — the seed's `DZVCRegisterGlobalAction`.
    @discardableResult
    public static func registerGlobal(_ action: LifecycleAction) -> LifecycleAction {
        shared.register(action)
    }

    /// Removes `action` (or the action with its identifier) from the shared registry — the seed's
    /// `DZVCRemoveGlobalAction`.
    @discardableResult
    public static func removeGlobal(_ action: LifecycleAction) -> Bool {
        shared.remove(action)
    }

    /// Delivers `event` to `host`: the global actions of the registry the host sees, then the host's own actions,
    /// each in registration order.
    ///
    /// For a ``LifecycleController`` this plays UIKit's part: it calls the controller's method (`viewDidAppear(_:)`
    /// for `.didAppear`), and the actions run where that method's override chain reaches `LifecycleController`'s
    /// implementation — where the override calls `super` — so the order is the seed's: the override's code before
    /// `super`, the actions, the override's code after `super`. An override that does not call `super` triggers no
    /// actions. For any other host, the actions run here: the host's own work is whatever it does around the call.
    ///
    /// Both action lists are read before the first action runs: an action registered or removed during the event
    /// takes effect from the next event.
    public static func dispatch(_ event: LifecycleEvent, to host: any LifecycleHost) {
        if let controller = host as? LifecycleController {
            controller.deliver(event)
        } else {
            runActions(for: event, on: host)
        }
    }

    static func runActions(for event: LifecycleEvent, on host: any LifecycleHost) {
        let list = host.lifecycleActions
        let globals = list.globals.actions
        let own = list.actions
        for action in globals {
            action.receive(event, from: host)
        }
        for action in own {
            action.receive(event, from: host)
        }
    }
}
