import RippleLifecycle
import Testing

/// The seed document's worked examples, in the scenario the tour prints: a global logging action tracking page
/// enter/leave, the visible stack, and a once action loading contacts, through show, push, push, pop, pop.
@Suite("The seed's examples")
@MainActor
struct SeedExampleTests {
    /// The seed's `DZViewControllerLogLifeCircleAction`, with begin/end the right way round.
    final class PageTrackingAction: LifecycleAction {
        let log: EventLog

        init(log: EventLog) {
            self.log = log
            super.init()
        }

        override func host(_ host: any LifecycleHost, willAppear animated: Bool) {
            log.append("\(title(of: host)) willAppear(animated: \(animated))")
        }

        override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
            log.append("\(title(of: host)) didAppear(animated: \(animated)) → trackPageBegin(\(title(of: host)))")
        }

        override func host(_ host: any LifecycleHost, willDisappear animated: Bool) {
            log.append("\(title(of: host)) willDisappear(animated: \(animated))")
        }

        override func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
            log.append("\(title(of: host)) didDisappear(animated: \(animated)) → trackPageEnd(\(title(of: host)))")
        }
    }

    @Test func globalLoggingVisibleStackAndOnceLoadThroughANavigation() {
        let log = EventLog()
        let registry = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: registry)                          // the seed's +load of DZUIStackLifeCircleAction
        registry.register(PageTrackingAction(log: log))      // DZVCRegisterGlobalAction([LogAction new])

        let navigation = Navigation(container: Screen("Navigation", globals: registry))
        let contacts = Screen("Contacts", globals: registry)
        contacts.registerLifecycleAction(OnceLifecycleAction { host, animated in
            log.append("\(title(of: host)): loading system contacts (first appearance, animated: \(animated))")
        })
        func printStack() {
            log.append("visible stack: \(stack.hosts.titles.joined(separator: " > ")), "
                       + "top: \(stack.top.map(title(of:)) ?? "none")")
        }

        log.append("show Navigation with root Contacts")
        navigation.show(root: contacts)
        printStack()
        log.append("push Chat")
        navigation.push(Screen("Chat", globals: registry))
        printStack()
        log.append("push Profile")
        navigation.push(Screen("Profile", globals: registry))
        printStack()
        log.append("pop")
        navigation.pop()
        printStack()
        log.append("pop")
        navigation.pop()
        printStack()

        #expect(log.lines == Self.transcript)
    }

    /// What the tour's "lifecycle" section prints for the same scenario.
    static let transcript = [
        "show Navigation with root Contacts",
        "Navigation willAppear(animated: false)",
        "Contacts willAppear(animated: false)",
        "Navigation didAppear(animated: false) → trackPageBegin(Navigation)",
        "Contacts didAppear(animated: false) → trackPageBegin(Contacts)",
        "Contacts: loading system contacts (first appearance, animated: false)",
        "visible stack: Navigation > Contacts, top: Contacts",
        "push Chat",
        "Contacts willDisappear(animated: true)",
        "Chat willAppear(animated: true)",
        "Contacts didDisappear(animated: true) → trackPageEnd(Contacts)",
        "Chat didAppear(animated: true) → trackPageBegin(Chat)",
        "visible stack: Navigation > Chat, top: Chat",
        "push Profile",
        "Chat willDisappear(animated: true)",
        "Profile willAppear(animated: true)",
        "Chat didDisappear(animated: true) → trackPageEnd(Chat)",
        "Profile didAppear(animated: true) → trackPageBegin(Profile)",
        "visible stack: Navigation > Profile, top: Profile",
        "pop",
        "Profile willDisappear(animated: true)",
        "Chat willAppear(animated: true)",
        "Profile didDisappear(animated: true) → trackPageEnd(Profile)",
        "Chat didAppear(animated: true) → trackPageBegin(Chat)",
        "visible stack: Navigation > Chat, top: Chat",
        "pop",
        "Chat willDisappear(animated: true)",
        "Contacts willAppear(animated: true)",
        "Chat didDisappear(animated: true) → trackPageEnd(Chat)",
        "Contacts didAppear(animated: true) → trackPageBegin(Contacts)",
        "visible stack: Navigation > Contacts, top: Contacts",
    ]

    @Test func aLoggingActionCanBeSwitchedOffForOneKindOfHost() {
        // The seed: "if one view controller must not log, mask the action out" — here the action checks the host.
        final class Silent: Screen {}
        let log = EventLog()
        let registry = LifecycleActions()
        registry.register(BlockLifecycleAction(on: [.didAppear]) { _, host, _ in
            guard !(host is Silent) else { return }
            log.append("trackPageBegin(\(title(of: host)))")
        })
        LifecycleActions.dispatch(.didAppear(animated: true), to: Screen("Feed", globals: registry))
        LifecycleActions.dispatch(.didAppear(animated: true), to: Silent("Splash", globals: registry))
        #expect(log.lines == ["trackPageBegin(Feed)"])
    }
}
