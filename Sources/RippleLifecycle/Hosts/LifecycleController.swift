/// A ready-made host that stands in for `UIViewController`: subclass it, override the lifecycle methods you need,
/// and call `super` as UIKit asks.
///
/// ```swift
/// final class ContactsController: LifecycleController {
///     override func viewDidAppear(_ animated: Bool) {
///         super.viewDidAppear(animated)
///         print("contacts on screen")
///     }
/// }
/// LifecycleActions.dispatch(.didAppear(animated: true), to: contacts)
/// // "contacts on screen", then the global actions, then the controller's own actions
/// ```
///
/// Deliver events with ``LifecycleActions/dispatch(_:to:)``, which plays UIKit's part: it calls your override, and
/// once it has returned runs the actions — as the seed's swizzled methods run them after the original
/// implementation. An override that does not call `super` triggers no actions for that event. If you call one of
/// these methods yourself instead (say `viewDidAppear(true)` on a controller you drive by hand), the actions run
/// when the call reaches `LifecycleController`'s implementation.
@MainActor
open class LifecycleController: LifecycleHost {
    public let lifecycleActions: LifecycleActionList

    /// Deliveries in progress through `dispatch`, innermost last, and whether each reached this class's
    /// implementation. A stack, because an override may dispatch to this same controller again.
    private var deliveries: [(phase: LifecyclePhase, reachedBase: Bool)] = []

    /// - Parameter globals: the registry whose global actions this controller sees.
    public init(globals: LifecycleActions = .shared) {
        lifecycleActions = LifecycleActionList(globals: globals)
    }

    open func viewDidLoad() {
        baseReached(.didLoad)
    }

    open func viewWillAppear(_ animated: Bool) {
        baseReached(.willAppear(animated: animated))
    }

    open func viewDidAppear(_ animated: Bool) {
        baseReached(.didAppear(animated: animated))
    }

    open func viewWillDisappear(_ animated: Bool) {
        baseReached(.willDisappear(animated: animated))
    }

    open func viewDidDisappear(_ animated: Bool) {
        baseReached(.didDisappear(animated: animated))
    }

    /// Calls the override chain for `event`; returns whether it reached this class's implementation.
    func runOwnImplementation(of event: LifecycleEvent) -> Bool {
        deliveries.append((event.phase, false))
        switch event {
        case .didLoad: viewDidLoad()
        case .willAppear(let animated): viewWillAppear(animated)
        case .didAppear(let animated): viewDidAppear(animated)
        case .willDisappear(let animated): viewWillDisappear(animated)
        case .didDisappear(let animated): viewDidDisappear(animated)
        }
        return deliveries.removeLast().reachedBase
    }

    private func baseReached(_ event: LifecycleEvent) {
        if let innermost = deliveries.indices.last, deliveries[innermost].phase == event.phase {
            // `dispatch` runs the actions once the whole override has returned.
            deliveries[innermost].reachedBase = true
        } else {
            LifecycleActions.runActions(for: event, on: self)
        }
    }
}
