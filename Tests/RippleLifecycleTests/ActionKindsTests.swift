import RippleLifecycle
import Testing

@Suite("Once, block and liveHost")
@MainActor
struct ActionKindsTests {
    let log = EventLog()
    let registry = LifecycleActions()

    @Test func aOnceActionFiresExactlyOnceAtTheFirstDidAppearWithItsAnimatedFlag() {
        let screen = Screen("A", globals: registry)
        var calls: [String] = []
        let once = OnceLifecycleAction { host, animated in
            calls.append("\(title(of: host)) animated: \(animated)")
        }
        screen.registerLifecycleAction(once)
        #expect(!once.hasFired)

        LifecycleActions.dispatch(.didLoad, to: screen)
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        #expect(calls.isEmpty)
        LifecycleActions.dispatch(.didAppear(animated: false), to: screen)
        #expect(calls == ["A animated: false"])
        LifecycleActions.dispatch(.didDisappear(animated: true), to: screen)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(calls == ["A animated: false"])
        #expect(once.hasFired)
        #expect(once.scope == .perAction)
    }

    @Test func aOnceActionIsOncePerActionAcrossHostsAndGlobally() {
        var calls: [String] = []
        let once = OnceLifecycleAction { host, animated in calls.append("\(title(of: host)) \(animated)") }
        registry.register(once)
        let a = Screen("A", globals: registry)
        let b = Screen("B", globals: registry)
        b.registerLifecycleAction(once)

        LifecycleActions.dispatch(.didAppear(animated: true), to: a)
        LifecycleActions.dispatch(.didAppear(animated: false), to: b)
        #expect(calls == ["A true"])
    }

    @Test func thePerHostModeFiresOnceForEveryHost() {
        var calls: [String] = []
        let once = OnceLifecycleAction(scope: .perHost) { host, animated in
            calls.append("\(title(of: host)) \(animated)")
        }
        registry.register(once)
        let a = Screen("A", globals: registry)
        let b = Screen("B", globals: registry)

        LifecycleActions.dispatch(.didAppear(animated: true), to: a)
        LifecycleActions.dispatch(.didAppear(animated: false), to: a)
        LifecycleActions.dispatch(.didAppear(animated: false), to: b)
        LifecycleActions.dispatch(.didAppear(animated: true), to: b)
        LifecycleActions.dispatch(.didAppear(animated: true), to: a)
        #expect(calls == ["A true", "B false"])
    }

    @Test func aOnceBlockThatMakesItsHostAppearAgainStillFiresOnce() {
        let screen = Screen("A", globals: registry)
        var calls = 0
        screen.registerLifecycleAction(OnceLifecycleAction { host, _ in
            calls += 1
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        })
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(calls == 1)
    }

    @Test func aBlockActionRunsOnlyForItsPhasesWithTheirArguments() {
        let screen = Screen("A", globals: registry)
        var calls: [String] = []
        let action = BlockLifecycleAction(on: [.didLoad, .willAppear, .didDisappear]) { phase, host, animated in
            calls.append("\(phase) \(title(of: host)) \(animated)")
        }
        #expect(action.phases == [.didLoad, .willAppear, .didDisappear])
        screen.registerLifecycleAction(action)

        LifecycleActions.dispatch(.didLoad, to: screen)
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.willDisappear(animated: false), to: screen)
        LifecycleActions.dispatch(.didDisappear(animated: false), to: screen)
        #expect(calls == ["didLoad A false", "willAppear A true", "didDisappear A false"])
    }

    @Test func liveHostIsSetOnWillAppearAndClearedAfterDidDisappear() {
        /// Records its own liveHost inside each hook.
        final class Probe: LifecycleAction {
            var seen: [String] = []
            private func note(_ phase: LifecyclePhase) {
                seen.append("\(phase): \(liveHost.map(title(of:)) ?? "nil")")
            }
            override func hostDidLoad(_ host: any LifecycleHost) { note(.didLoad) }
            override func host(_ host: any LifecycleHost, willAppear animated: Bool) { note(.willAppear) }
            override func host(_ host: any LifecycleHost, didAppear animated: Bool) { note(.didAppear) }
            override func host(_ host: any LifecycleHost, willDisappear animated: Bool) { note(.willDisappear) }
            override func host(_ host: any LifecycleHost, didDisappear animated: Bool) { note(.didDisappear) }
        }
        let probe = Probe()
        registry.register(probe)
        let screen = Screen("A", globals: registry)

        #expect(probe.liveHost == nil)
        for event: LifecycleEvent in [.didLoad, .willAppear(animated: true), .didAppear(animated: true),
                                      .willDisappear(animated: true), .didDisappear(animated: true)] {
            LifecycleActions.dispatch(event, to: screen)
        }
        #expect(probe.seen == ["didLoad: nil", "willAppear: A", "didAppear: A", "willDisappear: A",
                               "didDisappear: A"])
        #expect(probe.liveHost == nil)
    }

    @Test func liveHostStaysOnTheIncomingHostWhenTheOutgoingOneDisappears() {
        let action = registry.register(LifecycleAction())
        let a = Screen("A", globals: registry)
        let b = Screen("B", globals: registry)
        let navigation = Navigation(container: PlainHost("Nav", globals: LifecycleActions()))

        navigation.show(root: a)
        #expect(action.liveHost === a)
        navigation.push(b)
        #expect(action.liveHost === b)
        navigation.pop()
        #expect(action.liveHost === a)
        LifecycleActions.dispatch(.didDisappear(animated: false), to: a)
        #expect(action.liveHost == nil)
    }

    @Test func liveHostDoesNotKeepItsHostAlive() {
        let action = registry.register(LifecycleAction())
        var screen: Screen? = Screen("A", globals: registry)
        weak let weakScreen = screen
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen!)
        #expect(action.liveHost === screen)
        screen = nil
        #expect(weakScreen == nil)
        #expect(action.liveHost == nil)
    }
}
