import RippleLifecycle
import Testing

@Suite("Dispatch: the host's code before super, the globals, the host's actions, the host's code after super")
@MainActor
struct DispatchOrderTests {
    let log = EventLog()
    let registry = LifecycleActions()

    @Test func orderIsHostThenGlobalsThenHostActionsForEveryEvent() {
        registry.register(recordingAction("G1", log: log))
        registry.register(recordingAction("G2", log: log))
        let screen = Screen("A", log: log, globals: registry)
        screen.registerLifecycleAction(recordingAction("H1", log: log))
        screen.registerLifecycleAction(recordingAction("H2", log: log))

        let events: [LifecycleEvent] = [.didLoad, .willAppear(animated: true), .didAppear(animated: false),
                                        .willDisappear(animated: false), .didDisappear(animated: true)]
        for event in events {
            log.clear()
            LifecycleActions.dispatch(event, to: screen)
            #expect(log.lines == ["A own \(event)", "G1 \(event) A", "G2 \(event) A", "H1 \(event) A", "H2 \(event) A"])
        }
    }

    /// The seed runs the actions inside `UIViewController`'s swizzled method, which an override reaches through
    /// `super`: `H.before, A, H.after`. Every way of delivering an event keeps that order.
    @Test(arguments: DeliveryPath.allCases)
    func actionsRunWhereTheOverrideCallsSuper(_ path: DeliveryPath) {
        registry.register(recordingAction("G", log: log))
        let host = path.makeHost("A", log: log, globals: registry)
        host.registerLifecycleAction(recordingAction("H", log: log))

        let events: [LifecycleEvent] = [.didLoad, .willAppear(animated: true), .didAppear(animated: false),
                                        .willDisappear(animated: false), .didDisappear(animated: true)]
        for event in events {
            log.clear()
            path.deliver(event, to: host)
            #expect(log.lines == path.expectedLines(for: event, host: "A"), "\(path), \(event)")
        }
    }

    @Test func aPlainHostGetsGlobalsThenItsOwnActions() {
        registry.register(recordingAction("G1", log: log))
        registry.register(recordingAction("G2", log: log))
        let host = PlainHost("P", globals: registry)
        host.registerLifecycleAction(recordingAction("H1", log: log))

        LifecycleActions.dispatch(.didAppear(animated: true), to: host)
        #expect(log.lines == ["G1 didAppear(animated: true) P", "G2 didAppear(animated: true) P",
                              "H1 didAppear(animated: true) P"])
    }

    @Test func aHostWithoutOwnActionsGetsOnlyGlobals() {
        registry.register(recordingAction("G1", log: log))
        registry.register(recordingAction("G2", log: log))
        let other = Screen("B", globals: registry)
        other.registerLifecycleAction(recordingAction("B's", log: log))
        let screen = Screen("A", log: log, globals: registry)
        let host = PlainHost("P", globals: registry)

        LifecycleActions.dispatch(.willAppear(animated: false), to: screen)
        LifecycleActions.dispatch(.willAppear(animated: true), to: host)
        #expect(screen.lifecycleActions.actions.isEmpty)
        #expect(log.lines == ["A own willAppear(animated: false)", "G1 willAppear(animated: false) A",
                              "G2 willAppear(animated: false) A",
                              "G1 willAppear(animated: true) P", "G2 willAppear(animated: true) P"])
    }

    @Test func aHostSeesOnlyTheGlobalsOfItsOwnRegistry() {
        let otherRegistry = LifecycleActions()
        otherRegistry.register(recordingAction("other", log: log))
        registry.register(recordingAction("mine", log: log))
        let screen = Screen("A", globals: registry)

        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(log.lines == ["mine didLoad A"])
        #expect(screen.lifecycleActions.globals === registry)
    }

    @Test func anOverrideThatSkipsSuperTriggersNoActions() {
        registry.register(recordingAction("G", log: log))
        let screen = Screen("A", log: log, globals: registry, skipsSuper: [.didAppear])
        screen.registerLifecycleAction(recordingAction("H", log: log))

        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines == ["A own didAppear(animated: true)"])

        log.clear()
        screen.viewDidAppear(true)
        #expect(log.lines == ["A own didAppear(animated: true)"])

        log.clear()
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        #expect(log.lines == ["A own willAppear(animated: true)", "G willAppear(animated: true) A",
                              "H willAppear(animated: true) A"])
    }

    @Test func anOverrideThatDispatchesToItselfAgainNestsCleanly() {
        final class Reentrant: Screen {
            var nested = false
            override func viewDidAppear(_ animated: Bool) {
                if !nested {
                    nested = true
                    LifecycleActions.dispatch(.didAppear(animated: false), to: self)
                }
                super.viewDidAppear(animated)
            }
        }
        let screen = Reentrant("A", log: log, globals: registry)
        screen.registerLifecycleAction(recordingAction("H", log: log))

        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines == ["A own didAppear(animated: false)", "H didAppear(animated: false) A",
                              "A own didAppear(animated: true)", "H didAppear(animated: true) A"])
    }
}
