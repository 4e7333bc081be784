import RippleLifecycle

/// DZViewControllerLifeCircleAction: a global page-tracking action, the visible stack and a once action, through a
/// simulated navigation (show, push, push, pop, pop).
let lifecycleSection = TourSection(name: "lifecycle",
                                   summary: "lifecycle actions injected into hosts, visible stack (RippleLifecycle)") { log in
    await MainActor.run {
        runLifecycleTour(log)
    }
}

@MainActor
private func runLifecycleTour(_ log: TourLog) {
    log.heading("RippleLifecycle — behaviour injected into every screen's lifecycle")
    log.code("VisibleStack.shared.install(); LifecycleActions.registerGlobal(PageTrackingAction(log: log))")
    VisibleStack.shared.install()
    let tracking = LifecycleActions.registerGlobal(PageTrackingAction(log: log))
    defer {
        LifecycleActions.removeGlobal(tracking)
        VisibleStack.shared.uninstall()
    }

    log.code("contacts.registerLifecycleAction(OnceLifecycleAction { host, animated in loadContacts() })")
    let navigation = TourNavigation(container: TourScreen("Navigation"))
    let contacts = TourScreen("Contacts")
    contacts.registerLifecycleAction(OnceLifecycleAction { host, animated in
        log.print("\(pageName(host)): loading system contacts (first appearance, animated: \(animated))")
    })
    func printStack() {
        let stack = VisibleStack.shared
        log.print("visible stack: \(stack.hosts.map(pageName).joined(separator: " > ")), "
                  + "top: \(stack.top.map(pageName) ?? "none")")
    }

    log.print("show Navigation with root Contacts")
    navigation.show(root: contacts)
    printStack()
    log.print("push Chat")
    navigation.push(TourScreen("Chat"))
    printStack()
    log.print("push Profile")
    navigation.push(TourScreen("Profile"))
    printStack()
    log.print("pop")
    navigation.pop()
    printStack()
    log.print("pop")
    navigation.pop()
    printStack()
}

/// The seed's `DZViewControllerLogLifeCircleAction`: page begin when a screen appears, page end when it leaves.
private final class PageTrackingAction: LifecycleAction {
    let log: TourLog

    init(log: TourLog) {
        self.log = log
        super.init()
    }

    override func host(_ host: any LifecycleHost, willAppear animated: Bool) {
        log.print("\(pageName(host)) willAppear(animated: \(animated))")
    }

    override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        log.print("\(pageName(host)) didAppear(animated: \(animated)) → trackPageBegin(\(pageName(host)))")
    }

    override func host(_ host: any LifecycleHost, willDisappear animated: Bool) {
        log.print("\(pageName(host)) willDisappear(animated: \(animated))")
    }

    override func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        log.print("\(pageName(host)) didDisappear(animated: \(animated)) → trackPageEnd(\(pageName(host)))")
    }
}

private final class TourScreen: LifecycleController {
    let name: String

    init(_ name: String) {
        self.name = name
        super.init()
    }
}

@MainActor
private func pageName(_ host: any LifecycleHost) -> String {
    (host as? TourScreen)?.name ?? "\(type(of: host))"
}

/// Plays UIKit's navigation controller: the container stays on screen while children replace each other.
@MainActor
private final class TourNavigation {
    let container: any LifecycleHost
    private var children: [any LifecycleHost] = []

    init(container: any LifecycleHost) {
        self.container = container
    }

    func show(root: any LifecycleHost) {
        children = [root]
        for event: LifecycleEvent in [.didLoad, .willAppear(animated: false)] {
            LifecycleActions.dispatch(event, to: container)
            LifecycleActions.dispatch(event, to: root)
        }
        LifecycleActions.dispatch(.didAppear(animated: false), to: container)
        LifecycleActions.dispatch(.didAppear(animated: false), to: root)
    }

    func push(_ host: any LifecycleHost) {
        let old = children.last
        children.append(host)
        LifecycleActions.dispatch(.didLoad, to: host)
        transition(from: old, to: host)
    }

    func pop() {
        let old = children.removeLast()
        transition(from: old, to: children.last)
    }

    private func transition(from old: (any LifecycleHost)?, to new: (any LifecycleHost)?) {
        if let old { LifecycleActions.dispatch(.willDisappear(animated: true), to: old) }
        if let new { LifecycleActions.dispatch(.willAppear(animated: true), to: new) }
        if let old { LifecycleActions.dispatch(.didDisappear(animated: true), to: old) }
        if let new { LifecycleActions.dispatch(.didAppear(animated: true), to: new) }
    }
}
