import RippleLifecycle
import RippleTesting
import Testing

@Suite("Hosts and actions are released when unreferenced")
@MainActor
struct LeakTests {
    @Test func aHostAndItsActionsAreFreedTogether() {
        let registry = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: registry)
        let global = registry.register(OnceLifecycleAction(scope: .perHost) { _, _ in })
        expectReleased { tracker in
            let log = EventLog()
            let screen = tracker.track(Screen("A", log: log, globals: registry), "host")
            screen.registerLifecycleAction(tracker.track(recordingAction("H", log: log), "recording action"))
            screen.registerLifecycleAction(tracker.track(OnceLifecycleAction { _, _ in }, "once action"))
            screen.registerLifecycleAction(tracker.track(BlockLifecycleAction(on: [.didAppear]) { _, _, _ in },
                                                         "block action"))
            tracker.track(screen.lifecycleActions, "action list")
            // Leave it live and on the visible stack: neither may keep it alive.
            LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
            LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
            #expect(stack.top === screen)
            #expect(global.liveHost === screen)
        }
        #expect(stack.hosts.isEmpty)
        #expect(global.liveHost == nil)
    }

    @Test func aRemovedActionIsFreedWhileItsListLivesOn() {
        let registry = LifecycleActions()
        let screen = Screen("A", globals: registry)
        expectReleased { tracker in
            let global = tracker.track(recordingAction("G", log: EventLog()), "global action")
            let own = tracker.track(recordingAction("H", log: EventLog()), "host action")
            registry.register(global)
            screen.registerLifecycleAction(own)
            LifecycleActions.dispatch(.didAppear(animated: false), to: screen)
            registry.remove(global)
            screen.removeLifecycleAction(own)
        }
        #expect(registry.actions.isEmpty)
        #expect(screen.lifecycleActions.actions.isEmpty)
    }

    @Test func aRegistryIsFreedWithItsGlobalsOnceNoHostSeesIt() {
        expectReleased { tracker in
            let registry = tracker.track(LifecycleActions(), "registry")
            registry.register(tracker.track(recordingAction("G", log: EventLog()), "global action"))
            let stack = tracker.track(VisibleStack(), "visible stack")
            stack.install(in: registry)
            let host = tracker.track(PlainHost("P", globals: registry), "host")
            LifecycleActions.dispatch(.didAppear(animated: true), to: host)
        }
    }
}
