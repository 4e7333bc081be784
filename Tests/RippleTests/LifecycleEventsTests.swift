@testable import Ripple
import RippleTesting
import Testing

/// A host that is not a controller: it reports its events with `LifecycleActions.dispatch`.
@MainActor
final class Screen: LifecycleHost {
    let lifecycleActions: LifecycleActionList

    init(globals: LifecycleActions) {
        lifecycleActions = LifecycleActionList(globals: globals)
    }
}

@MainActor
@Suite("Bridge: host.lifecycleEvents")
struct LifecycleEventsTests {
    let globals = LifecycleActions()

    @Test func everyEventAfterSubscribingInOrder() {
        let screen = Screen(globals: globals)
        LifecycleActions.dispatch(.didLoad, to: screen)      // before subscribing: not seen
        let log = EventLog<String>()
        let disposer = screen.lifecycleEvents.map(\.description).subscribe(into: log)
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.willDisappear(animated: false), to: screen)
        LifecycleActions.dispatch(.didDisappear(animated: false), to: screen)
        #expect(log.values == ["willAppear(animated: true)", "didAppear(animated: true)",
                               "willDisappear(animated: false)", "didDisappear(animated: false)"])
        #expect(log.end == nil)
        disposer.dispose()
    }

    @Test func runsAfterGlobalAndEarlierHostActions() {
        let screen = Screen(globals: globals)
        let order = Recorder<String>()
        globals.register(BlockLifecycleAction(on: [.didLoad]) { _, _, _ in order.record("global") })
        screen.registerLifecycleAction(BlockLifecycleAction(on: [.didLoad]) { _, _, _ in order.record("host") })
        let signal = screen.lifecycleEvents
        screen.registerLifecycleAction(BlockLifecycleAction(on: [.didLoad]) { _, _, _ in order.record("later") })
        let disposer = signal.subscribe(value: { order.record("signal \($0)") })
        let second = screen.lifecycleEvents.subscribe(value: { order.record("second \($0)") })
        #expect(screen.lifecycleActions.actions.count == 3)   // one forwarding action per host
        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(order.values == ["global", "host", "signal didLoad", "second didLoad", "later"])
        disposer.dispose()
        second.dispose()
    }

    @Test func controllerEventsToo() {
        let controller = LifecycleController(globals: globals)
        let log = EventLog<String>()
        let disposer = controller.lifecycleEvents.map(\.description).subscribe(into: log)
        LifecycleActions.dispatch(.didLoad, to: controller)
        controller.viewDidAppear(true)      // driven by hand: the actions still run
        #expect(log.values == ["didLoad", "didAppear(animated: true)"])
        disposer.dispose()
    }

    @Test func disposingUnregisters() throws {
        let screen = Screen(globals: globals)
        let log = EventLog<String>()
        let disposer = screen.lifecycleEvents.map(\.description).subscribe(into: log)
        let hub = try #require(screen.lifecycleActions.actions.first as? LifecycleEventHub)
        #expect(hub.subscribers.count == 1)
        disposer.dispose()
        #expect(hub.subscribers.count == 0)
        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(log.values.isEmpty)
        #expect(log.end == nil)
    }

    @Test func freeingTheHostCompletes() {
        let log = EventLog<String>()
        var screen: Screen? = Screen(globals: globals)
        weak let weakScreen = screen
        screen?.lifecycleEvents.map(\.description).subscribe(into: log)
        LifecycleActions.dispatch(.didLoad, to: screen!)
        screen = nil
        #expect(weakScreen == nil)   // the subscription does not keep the host alive
        #expect(log.values == ["didLoad"])
        #expect(log.end == "completed")
    }

    @Test func subscribingAfterTheHostIsGoneCompletesAtOnce() {
        var screen: Screen? = Screen(globals: globals)
        let signal = screen!.lifecycleEvents
        screen = nil
        let log = EventLog<LifecycleEvent>()
        signal.subscribe(into: log)
        #expect(log.end == "completed")
    }

    @Test func subscribingAndDisposingOffTheMainThread() async throws {
        let screen = Screen(globals: globals)
        let signal = screen.lifecycleEvents
        let hub = try #require(screen.lifecycleActions.actions.first as? LifecycleEventHub)
        let log = EventLog<String>()
        let disposer = await Task.detached { signal.map(\.description).subscribe(into: log) }.value
        #expect(hub.subscribers.count == 1)     // joined synchronously, no main-actor hop needed
        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(log.values == ["didLoad"])
        await Task.detached { disposer.dispose() }.value
        #expect(hub.subscribers.count == 0)
        LifecycleActions.dispatch(.willAppear(animated: false), to: screen)
        #expect(log.values == ["didLoad"])
    }

    @Test func nothingLeaks() {
        expectReleased { tracker in
            let screen = tracker.track(Screen(globals: globals), "screen")
            let log = EventLog<String>()
            let disposer = screen.lifecycleEvents.map(\.description).subscribe(into: log)
            tracker.track(screen.lifecycleActions.actions[0], "forwarding action")
            LifecycleActions.dispatch(.didLoad, to: screen)
            disposer.dispose()
        }
        expectReleased { tracker in
            let screen = tracker.track(Screen(globals: globals), "screen")
            let log = EventLog<String>()
            screen.lifecycleEvents.map(\.description).take(1).subscribe(into: log)
            tracker.track(screen.lifecycleActions.actions[0], "forwarding action")
            LifecycleActions.dispatch(.didLoad, to: screen)
            #expect(log.end == "completed")
        }
        expectReleased { tracker in
            // Never disposed: the host's end completes the subscription and frees everything.
            let screen = tracker.track(Screen(globals: globals), "screen")
            let log = EventLog<String>()
            screen.lifecycleEvents.map(\.description).subscribe(into: log)
            tracker.track(screen.lifecycleActions.actions[0], "forwarding action")
        }
    }
}
