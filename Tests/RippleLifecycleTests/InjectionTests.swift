import Dispatch
@testable import RippleLifecycle
import RippleTesting
import Testing

/// Plays UIKit's part for the injected path: `viewDidAppear(_:)` and friends are "UIKit's implementation" followed by
/// exactly what the exchanged `ripple_` methods of UIKitInjection.swift do after calling the original —
/// `LifecycleInjection.deliver(_:from:attachedHost:)` with the controller's attached host (a stored property here,
/// an associated object on UIKit). Only the exchange itself is not run on Linux.
@MainActor
class StandInViewController {
    let title: String
    let log: EventLog
    let globals: LifecycleActions
    private var attached: AttachedLifecycleHost<StandInViewController>?
    private(set) var hostsMade = 0

    init(_ title: String, log: EventLog, globals: LifecycleActions) {
        self.title = title
        self.log = log
        self.globals = globals
    }

    var lifecycleHost: AttachedLifecycleHost<StandInViewController> {
        if let attached { return attached }
        let host = AttachedLifecycleHost(owner: self, globals: globals)
        hostsMade += 1
        attached = host
        return host
    }

    func viewDidLoad() { injected(.didLoad) }
    func viewWillAppear(_ animated: Bool) { injected(.willAppear(animated: animated)) }
    func viewDidAppear(_ animated: Bool) { injected(.didAppear(animated: animated)) }
    func viewWillDisappear(_ animated: Bool) { injected(.willDisappear(animated: animated)) }
    func viewDidDisappear(_ animated: Bool) { injected(.didDisappear(animated: animated)) }

    private func injected(_ event: LifecycleEvent) {
        log.append("UIKit \(event) \(title)")                                   // the original implementation
        LifecycleInjection.deliver(event, from: self) { lifecycleHost }     // what the ripple_ method adds
    }
}

/// A screen as an app writes it: no base class to adopt, an override that calls `super`.
@MainActor
final class ChatScreen: StandInViewController {
    override func viewDidAppear(_ animated: Bool) {
        log.append("Chat before super")
        super.viewDidAppear(animated)
        log.append("Chat after super")
    }
}

/// A view controller on the subclassing recipe: it is a `LifecycleHost` and reports its own events.
@MainActor
final class HostingStandIn: StandInViewController, LifecycleHost, TitledHost {
    let lifecycleActions: LifecycleActionList

    override init(_ title: String, log: EventLog, globals: LifecycleActions) {
        lifecycleActions = LifecycleActionList(globals: globals)
        super.init(title, log: log, globals: globals)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        LifecycleActions.dispatch(.didAppear(animated: animated), to: self)   // the recipe's forward
    }
}

@MainActor
private func ownerTitle(_ host: any LifecycleHost) -> String {
    (host as? AttachedLifecycleHost<StandInViewController>)?.owner?.title ?? title(of: host)
}

@MainActor
private func recorder(_ name: String, _ log: EventLog) -> LifecycleAction {
    BlockLifecycleAction(on: Set(LifecyclePhase.allCases)) { phase, host, animated in
        log.append("\(name) \(LifecycleEvent(phase, animated: animated)) \(ownerTitle(host))")
    }
}

@Suite("Injection: actions on objects that do not report their own events (UIKit's installOnAllViewControllers)")
@MainActor
struct InjectionTests {
    @Test func globalThenOwnActionsRunAfterTheOriginalAtTheSuperCall() {
        let log = EventLog()
        let registry = LifecycleActions()
        registry.register(recorder("global", log))
        let chat = ChatScreen("Chat", log: log, globals: registry)
        chat.lifecycleHost.registerLifecycleAction(recorder("own", log))
        chat.viewDidLoad()
        chat.viewDidAppear(true)
        #expect(log.lines == [
            "UIKit didLoad Chat", "global didLoad Chat", "own didLoad Chat",
            "Chat before super",
            "UIKit didAppear(animated: true) Chat", "global didAppear(animated: true) Chat",
            "own didAppear(animated: true) Chat",
            "Chat after super",
        ])
        #expect(chat.hostsMade == 1, "one host per controller, made on first use and kept")
    }

    @Test func everyPhaseIsDelivered() {
        let log = EventLog()
        let registry = LifecycleActions()
        registry.register(recorder("global", log))
        let screen = StandInViewController("S", log: log, globals: registry)
        screen.viewWillAppear(false)
        screen.viewWillDisappear(true)
        screen.viewDidDisappear(true)
        #expect(log.lines.filter { $0.hasPrefix("global") } == [
            "global willAppear(animated: false) S", "global willDisappear(animated: true) S",
            "global didDisappear(animated: true) S",
        ])
    }

    @Test func aControllerThatIsAHostIsLeftToReportItself() {
        let log = EventLog()
        let registry = LifecycleActions()
        registry.register(recorder("global", log))
        let screen = HostingStandIn("Recipe", log: log, globals: registry)
        screen.viewDidAppear(false)
        #expect(log.lines == ["UIKit didAppear(animated: false) Recipe", "global didAppear(animated: false) Recipe"],
                "the action runs once, from the recipe's forward, not again from the injected method")
        #expect(screen.hostsMade == 0)
    }

    @Test func theVisibleStackTracksInjectedControllers() {
        let log = EventLog()
        let registry = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: registry)
        let first = StandInViewController("first", log: log, globals: registry)
        let second = StandInViewController("second", log: log, globals: registry)
        first.viewDidAppear(false)
        second.viewDidAppear(true)
        #expect(stack.hosts.map(ownerTitle) == ["first", "second"])
        second.viewDidDisappear(true)
        #expect(stack.hosts.map(ownerTitle) == ["first"])
    }

    @Test func theHostIsFreedWithItsController() {
        let log = EventLog()
        let registry = LifecycleActions()
        expectReleased { tracker in
            let screen = tracker.track(StandInViewController("S", log: log, globals: registry), "controller")
            let host = tracker.track(screen.lifecycleHost, "attached host")
            host.registerLifecycleAction(recorder("own", log))
            screen.viewDidAppear(false)
        }
        #expect(log.lines.count == 2)
    }

    @Test func theOwnerIsHeldWeakly() {
        let registry = LifecycleActions()
        var owner: StandInViewController? = StandInViewController("S", log: EventLog(), globals: registry)
        let host = AttachedLifecycleHost(owner: owner!, globals: registry)
        #expect(host.owner != nil)
        owner = nil
        #expect(host.owner == nil)
    }
}

@Suite("InstallOnce: installOnAllViewControllers runs its body once, whoever races")
struct InstallOnceTests {
    @Test func oneOfManyRacingCallersInstalls() async {
        for _ in 0..<50 {
            let once = InstallOnce()
            let bodies = Recorder<Int>()
            let installed = Recorder<Bool>()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        installed.record(once.run { bodies.record(index) })
                    }
                }
            }
            #expect(bodies.values.count == 1)
            #expect(installed.values.filter { $0 }.count == 1)
            #expect(installed.values.count == 8)
            #expect(once.hasRun)
        }
    }

    @Test func aLaterCallDoesNothing() {
        let once = InstallOnce()
        var runs = 0
        #expect(once.run { runs += 1 })
        #expect(!once.run { runs += 1 })
        #expect(runs == 1)
    }
}
