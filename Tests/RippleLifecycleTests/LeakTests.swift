import RippleCore
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

@Suite("Live-object counts")
struct LiveObjectCountTests {
    /// Runs in its own process (an exit test), so no test running in parallel can move the counts.
    @Test func buildDriveAndDropReturnsCountsToTheBaseline() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                func live() -> [Int] {
                    let counts = RippleDiagnostics.liveObjects
                    return [counts["LifecycleAction", default: 0], counts["LifecycleActionList", default: 0]]
                }
                let baseline = live()
                do {
                    let probe = (LifecycleAction(), LifecycleActionList(globals: LifecycleActions()))
                    if live() != [baseline[0] + 1, baseline[1] + 1] {
                        fatalError("the counters missed a live action or list: \(live()) against \(baseline)")
                    }
                    withExtendedLifetime(probe) {}
                }

                for _ in 0..<1_000 {
                    let registry = LifecycleActions()
                    VisibleStack().install(in: registry)
                    registry.register(OnceLifecycleAction(scope: .perHost) { _, _ in })
                    let host = LifecycleController(globals: registry)
                    host.registerLifecycleAction(BlockLifecycleAction(on: [.didAppear]) { _, _, _ in })
                    for event: LifecycleEvent in [.didLoad, .willAppear(animated: true), .didAppear(animated: true),
                                                  .willDisappear(animated: true), .didDisappear(animated: true)] {
                        LifecycleActions.dispatch(event, to: host)
                    }
                }
                if live() != baseline {
                    fatalError("live actions and lists \(live()), baseline \(baseline)")
                }
            }
        }
    }
}
