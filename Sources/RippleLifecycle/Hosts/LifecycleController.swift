/// A ready-made host that stands in for `UIViewController`: subclass it, override the lifecycle methods you need,
/// and call `super` as UIKit asks.
///
/// ```swift
/// final class ContactsController: LifecycleController {
///     override func viewDidAppear(_ animated: Bool) {
///         print("before super")
///         super.viewDidAppear(animated)      // the global actions, then the controller's own actions, run here
///         print("after super")
///     }
/// }
/// LifecycleActions.dispatch(.didAppear(animated: true), to: contacts)
/// ```
///
/// The actions run where the override chain reaches `LifecycleController`'s implementation — where your override
/// calls `super` — as the seed's actions run inside `UIViewController`'s swizzled method, which a subclass reaches
/// through `super`: your code before `super`, the actions, your code after `super`. That holds whether the event
/// comes through ``LifecycleActions/dispatch(_:to:)`` (which calls your override) or you call `viewDidAppear(_:)`
/// yourself. An override that does not call `super` triggers no actions for that event.
@MainActor
open class LifecycleController: LifecycleHost {
    public let lifecycleActions: LifecycleActionList

    /// - Parameter globals: the registry whose global actions this controller sees.
    public init(globals: LifecycleActions = .shared) {
        lifecycleActions = LifecycleActionList(globals: globals)
    }

    open func viewDidLoad() {
        LifecycleActions.runActions(for: .didLoad, on: self)
    }

    open func viewWillAppear(_ animated: Bool) {
        LifecycleActions.runActions(for: .willAppear(animated: animated), on: self)
    }

    open func viewDidAppear(_ animated: Bool) {
        LifecycleActions.runActions(for: .didAppear(animated: animated), on: self)
    }

    open func viewWillDisappear(_ animated: Bool) {
        LifecycleActions.runActions(for: .willDisappear(animated: animated), on: self)
    }

    open func viewDidDisappear(_ animated: Bool) {
        LifecycleActions.runActions(for: .didDisappear(animated: animated), on: self)
    }

    /// Calls the override chain for `event`, as UIKit calls a view controller's method; the actions run when the
    /// chain reaches this class's implementation.
    func deliver(_ event: LifecycleEvent) {
        switch event {
        case .didLoad: viewDidLoad()
        case .willAppear(let animated): viewWillAppear(animated)
        case .didAppear(let animated): viewDidAppear(animated)
        case .willDisappear(let animated): viewWillDisappear(animated)
        case .didDisappear(let animated): viewDidDisappear(animated)
        }
    }
}
