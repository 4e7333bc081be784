import Foundation
import RippleLifecycle
import Testing

/// Lines recorded by hosts and actions, in the order they ran.
@MainActor
final class EventLog {
    private(set) var lines: [String] = []

    func append(_ line: String) {
        lines.append(line)
    }

    func clear() {
        lines.removeAll()
    }
}

@MainActor
protocol TitledHost: LifecycleHost {
    var title: String { get }
}

@MainActor
func title(of host: any LifecycleHost) -> String {
    (host as? any TitledHost)?.title ?? "?"
}

/// An action on every phase that records "<name> <event> <host>".
@MainActor
func recordingAction(_ name: String, log: EventLog, identifier: String? = nil) -> LifecycleAction {
    let record: @MainActor (LifecyclePhase, any LifecycleHost, Bool) -> Void = { phase, host, animated in
        log.append("\(name) \(LifecycleEvent(phase, animated: animated)) \(title(of: host))")
    }
    let phases = Set(LifecyclePhase.allCases)
    if let identifier {
        return BlockLifecycleAction(on: phases, identifier: identifier, record)
    }
    return BlockLifecycleAction(on: phases, record)
}

/// A controller that records its own implementation ("<title> own <event>") before calling super, unless told to
/// skip super for some phases.
class Screen: LifecycleController, TitledHost {
    let title: String
    let log: EventLog?
    let skipsSuper: Set<LifecyclePhase>

    init(_ title: String, log: EventLog? = nil, globals: LifecycleActions, skipsSuper: Set<LifecyclePhase> = []) {
        self.title = title
        self.log = log
        self.skipsSuper = skipsSuper
        super.init(globals: globals)
    }

    private func own(_ event: LifecycleEvent) -> Bool {
        log?.append("\(title) own \(event)")
        return !skipsSuper.contains(event.phase)
    }

    override func viewDidLoad() {
        if own(.didLoad) { super.viewDidLoad() }
    }

    override func viewWillAppear(_ animated: Bool) {
        if own(.willAppear(animated: animated)) { super.viewWillAppear(animated) }
    }

    override func viewDidAppear(_ animated: Bool) {
        if own(.didAppear(animated: animated)) { super.viewDidAppear(animated) }
    }

    override func viewWillDisappear(_ animated: Bool) {
        if own(.willDisappear(animated: animated)) { super.viewWillDisappear(animated) }
    }

    override func viewDidDisappear(_ animated: Bool) {
        if own(.didDisappear(animated: animated)) { super.viewDidDisappear(animated) }
    }
}

/// A host that cannot subclass `LifecycleController`: it stores its list and reports events with `dispatch`.
final class PlainHost: TitledHost {
    let title: String
    let lifecycleActions: LifecycleActionList

    init(_ title: String, globals: LifecycleActions) {
        self.title = title
        lifecycleActions = LifecycleActionList(globals: globals)
    }
}

/// Drives hosts the way UIKit's navigation controller does: the container stays on screen, children replace each
/// other (push: new didLoad, old willDisappear, new willAppear, old didDisappear, new didAppear).
@MainActor
final class Navigation {
    let container: any LifecycleHost
    private(set) var children: [any LifecycleHost] = []

    init(container: any LifecycleHost) {
        self.container = container
    }

    func show(root: any LifecycleHost, animated: Bool = false) {
        children = [root]
        LifecycleActions.dispatch(.didLoad, to: container)
        LifecycleActions.dispatch(.didLoad, to: root)
        LifecycleActions.dispatch(.willAppear(animated: animated), to: container)
        LifecycleActions.dispatch(.willAppear(animated: animated), to: root)
        LifecycleActions.dispatch(.didAppear(animated: animated), to: container)
        LifecycleActions.dispatch(.didAppear(animated: animated), to: root)
    }

    func push(_ host: any LifecycleHost, animated: Bool = true) {
        let old = children.last
        children.append(host)
        LifecycleActions.dispatch(.didLoad, to: host)
        transition(from: old, to: host, animated: animated)
    }

    func pop(animated: Bool = true) {
        let old = children.removeLast()
        transition(from: old, to: children.last, animated: animated)
    }

    private func transition(from old: (any LifecycleHost)?, to new: (any LifecycleHost)?, animated: Bool) {
        if let old { LifecycleActions.dispatch(.willDisappear(animated: animated), to: old) }
        if let new { LifecycleActions.dispatch(.willAppear(animated: animated), to: new) }
        if let old { LifecycleActions.dispatch(.didDisappear(animated: animated), to: old) }
        if let new { LifecycleActions.dispatch(.didAppear(animated: animated), to: new) }
    }
}

extension Array where Element == any LifecycleHost {
    @MainActor var titles: [String] {
        map { title(of: $0) }
    }
}

/// The three ways a host's event reaches the actions, for the order tests: each host records "<title> before <event>"
/// and "<title> after <event>" around its call to `super`.
enum DeliveryPath: String, CaseIterable, CustomTestStringConvertible {
    /// `LifecycleActions.dispatch` on a `LifecycleController` subclass.
    case dispatchToController
    /// Calling the `LifecycleController` subclass's `viewDidAppear(_:)` and friends directly.
    case directCall
    /// UIKit calling a screen derived from the UIKit recipe's `BaseViewController` (AttachingToUIKit.md).
    case uiKitRecipe

    var testDescription: String { rawValue }

    @MainActor
    func makeHost(_ title: String, log: EventLog, globals: LifecycleActions) -> any LifecycleHost {
        switch self {
        case .dispatchToController, .directCall: AroundSuperScreen(title, log: log, globals: globals)
        case .uiKitRecipe: RecipeScreen(title, log: log, globals: globals)
        }
    }

    @MainActor
    func deliver(_ event: LifecycleEvent, to host: any LifecycleHost) {
        switch self {
        case .dispatchToController:
            LifecycleActions.dispatch(event, to: host)
        case .directCall:
            (host as! AroundSuperScreen).call(event)
        case .uiKitRecipe:
            (host as! RecipeScreen).call(event)
        }
    }

    func expectedLines(for event: LifecycleEvent, host: String) -> [String] {
        let uiKit = self == .uiKitRecipe ? ["UIKit \(event)"] : []
        return ["\(host) before \(event)"] + uiKit + ["G \(event) \(host)", "H \(event) \(host)",
                                                      "\(host) after \(event)"]
    }
}

/// A screen whose overrides do work before and after `super`; the five overrides are spelled out in each class
/// hierarchy (a `LifecycleController` and the UIKit recipe's base class), as an app's screens would.
@MainActor
protocol WorksAroundSuper: TitledHost {
    var log: EventLog { get }
}

extension WorksAroundSuper {
    func around(_ event: LifecycleEvent, _ callSuper: () -> Void) {
        log.append("\(title) before \(event)")
        callSuper()
        log.append("\(title) after \(event)")
    }
}

/// A `LifecycleController` whose overrides do work before and after `super`.
final class AroundSuperScreen: LifecycleController, WorksAroundSuper {
    let title: String
    let log: EventLog

    init(_ title: String, log: EventLog, globals: LifecycleActions) {
        self.title = title
        self.log = log
        super.init(globals: globals)
    }

    override func viewDidLoad() { around(.didLoad) { super.viewDidLoad() } }
    override func viewWillAppear(_ animated: Bool) {
        around(.willAppear(animated: animated)) { super.viewWillAppear(animated) }
    }
    override func viewDidAppear(_ animated: Bool) {
        around(.didAppear(animated: animated)) { super.viewDidAppear(animated) }
    }
    override func viewWillDisappear(_ animated: Bool) {
        around(.willDisappear(animated: animated)) { super.viewWillDisappear(animated) }
    }
    override func viewDidDisappear(_ animated: Bool) {
        around(.didDisappear(animated: animated)) { super.viewDidDisappear(animated) }
    }
}

/// Stands in for `UIViewController` (Linux has no UIKit): its methods do UIKit's own work, logged as "UIKit <event>".
@MainActor
class FakeUIViewController {
    let log: EventLog

    init(log: EventLog) {
        self.log = log
    }

    func viewDidLoad() { log.append("UIKit didLoad") }
    func viewWillAppear(_ animated: Bool) { log.append("UIKit \(LifecycleEvent.willAppear(animated: animated))") }
    func viewDidAppear(_ animated: Bool) { log.append("UIKit \(LifecycleEvent.didAppear(animated: animated))") }
    func viewWillDisappear(_ animated: Bool) {
        log.append("UIKit \(LifecycleEvent.willDisappear(animated: animated))")
    }
    func viewDidDisappear(_ animated: Bool) {
        log.append("UIKit \(LifecycleEvent.didDisappear(animated: animated))")
    }
}

/// AttachingToUIKit.md's `BaseViewController`, line for line, on the stand-in for `UIViewController`.
class RecipeBaseViewController: FakeUIViewController, LifecycleHost {
    let lifecycleActions: LifecycleActionList

    init(log: EventLog, globals: LifecycleActions) {
        lifecycleActions = LifecycleActionList(globals: globals)
        super.init(log: log)
    }

    override func viewDidLoad() { super.viewDidLoad(); LifecycleActions.dispatch(.didLoad, to: self) }
    override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); LifecycleActions.dispatch(.willAppear(animated: animated), to: self) }
    override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); LifecycleActions.dispatch(.didAppear(animated: animated), to: self) }
    override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); LifecycleActions.dispatch(.willDisappear(animated: animated), to: self) }
    override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); LifecycleActions.dispatch(.didDisappear(animated: animated), to: self) }
}

/// An app's screen derived from the recipe's base class, with work before and after `super`.
final class RecipeScreen: RecipeBaseViewController, WorksAroundSuper {
    let title: String

    init(_ title: String, log: EventLog, globals: LifecycleActions) {
        self.title = title
        super.init(log: log, globals: globals)
    }

    override func viewDidLoad() { around(.didLoad) { super.viewDidLoad() } }
    override func viewWillAppear(_ animated: Bool) {
        around(.willAppear(animated: animated)) { super.viewWillAppear(animated) }
    }
    override func viewDidAppear(_ animated: Bool) {
        around(.didAppear(animated: animated)) { super.viewDidAppear(animated) }
    }
    override func viewWillDisappear(_ animated: Bool) {
        around(.willDisappear(animated: animated)) { super.viewWillDisappear(animated) }
    }
    override func viewDidDisappear(_ animated: Bool) {
        around(.didDisappear(animated: animated)) { super.viewDidDisappear(animated) }
    }
}

/// The five methods UIKit calls, on `LifecycleController` and on the stand-in for `UIViewController` alike.
@MainActor
protocol ViewControllerMethods {
    func viewDidLoad()
    func viewWillAppear(_ animated: Bool)
    func viewDidAppear(_ animated: Bool)
    func viewWillDisappear(_ animated: Bool)
    func viewDidDisappear(_ animated: Bool)
}

extension LifecycleController: ViewControllerMethods {}
extension FakeUIViewController: ViewControllerMethods {}

extension ViewControllerMethods {
    /// Calls the method for `event`, as UIKit does, or as code driving a controller by hand does.
    func call(_ event: LifecycleEvent) {
        switch event {
        case .didLoad: viewDidLoad()
        case .willAppear(let animated): viewWillAppear(animated)
        case .didAppear(let animated): viewDidAppear(animated)
        case .willDisappear(let animated): viewWillDisappear(animated)
        case .didDisappear(let animated): viewDidDisappear(animated)
        }
    }
}

/// Whether a sanitizer runs the suite (each call costs far more there): heavy tests scale down.
let sanitized: Bool = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil
    || ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
