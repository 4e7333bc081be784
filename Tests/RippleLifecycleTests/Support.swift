import RippleLifecycle

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
