import RippleLifecycle
import Testing

@Suite("Registration and removal, global and per host")
@MainActor
struct RegistrationTests {
    let log = EventLog()
    let registry = LifecycleActions()

    @Test func registeringAnEqualActionReturnsTheOneAlreadyRegisteredAndCallsItOnce() {
        let screen = Screen("A", globals: registry)
        let first = recordingAction("first", log: log, identifier: "tracking")
        let second = recordingAction("second", log: log, identifier: "tracking")

        #expect(screen.registerLifecycleAction(first) === first)
        #expect(screen.registerLifecycleAction(second) === first)
        #expect(screen.registerLifecycleAction(first) === first)
        #expect(registry.register(second) === second)
        #expect(registry.register(first) === second)

        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines == ["second didAppear(animated: true) A", "first didAppear(animated: true) A"])
        #expect(screen.lifecycleActions.actions == [first])
        #expect(registry.actions.count == 1)
    }

    @Test func identityIsTheIdentifierAlone() {
        let a = LifecycleAction(identifier: "same")
        let b = BlockLifecycleAction(on: [.didLoad], identifier: "same") { _, _, _ in }
        let c = LifecycleAction()
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(Set<LifecycleAction>([a, b, c]).count == 2)
        #expect(LifecycleAction().identifier != LifecycleAction().identifier)
    }

    @Test func removalWorksForTheHostsList() {
        let screen = Screen("A", globals: registry)
        let kept = screen.registerLifecycleAction(recordingAction("kept", log: log))
        let removed = screen.registerLifecycleAction(recordingAction("removed", log: log))

        #expect(screen.removeLifecycleAction(removed))
        #expect(!screen.removeLifecycleAction(removed))
        LifecycleActions.dispatch(.didAppear(animated: false), to: screen)
        #expect(log.lines == ["kept didAppear(animated: false) A"])
        #expect(screen.lifecycleActions.actions == [kept])
    }

    @Test func removalWorksForTheGlobalList() {
        let screen = Screen("A", globals: registry)
        registry.register(recordingAction("kept", log: log))
        let removed = registry.register(recordingAction("removed", log: log, identifier: "log"))

        // An equal action (same identifier) removes the registered one.
        #expect(registry.remove(recordingAction("stand-in", log: log, identifier: "log")))
        #expect(!registry.remove(removed))
        LifecycleActions.dispatch(.didDisappear(animated: true), to: screen)
        #expect(log.lines == ["kept didDisappear(animated: true) A"])
    }

    @Test func anActionRegisteredDuringAnEventRunsFromTheNextEvent() {
        let screen = Screen("A", globals: registry)
        let lateHost = recordingAction("late host", log: log)
        let lateGlobal = recordingAction("late global", log: log)
        registry.register(BlockLifecycleAction(on: [.didAppear]) { [weak registry] _, host, _ in
            host.registerLifecycleAction(lateHost)
            registry?.register(lateGlobal)
        })

        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines.isEmpty)
        LifecycleActions.dispatch(.didAppear(animated: false), to: screen)
        #expect(log.lines == ["late global didAppear(animated: false) A", "late host didAppear(animated: false) A"])
    }

    @Test func anActionRemovedDuringAnEventStillRunsInThatEventOnly() {
        let screen = Screen("A", globals: registry)
        let doomed = recordingAction("doomed", log: log)
        screen.registerLifecycleAction(BlockLifecycleAction(on: [.willAppear]) { _, host, _ in
            host.removeLifecycleAction(doomed)
        })
        screen.registerLifecycleAction(doomed)

        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
        #expect(log.lines == ["doomed willAppear(animated: true) A"])
    }
}

@Suite("The shared registry's static API", .serialized)
@MainActor
struct SharedRegistryTests {
    @Test func registerGlobalAndRemoveGlobalActOnTheSharedRegistry() {
        let log = EventLog()
        let action = recordingAction("global", log: log)
        #expect(LifecycleActions.registerGlobal(action) === action)
        defer { LifecycleActions.removeGlobal(action) }
        #expect(LifecycleActions.globalActions.contains(action))
        #expect(LifecycleActions.shared.actions.contains(action))

        let screen = Screen("A", globals: .shared)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines == ["global didAppear(animated: true) A"])

        #expect(LifecycleActions.removeGlobal(action))
        #expect(!LifecycleActions.globalActions.contains(action))
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(log.lines.count == 1)
    }

    @Test func hostsSeeTheSharedRegistryByDefault() {
        final class DefaultHost: LifecycleHost {
            let lifecycleActions = LifecycleActionList()
        }
        #expect(DefaultHost().lifecycleActions.globals === LifecycleActions.shared)
        #expect(LifecycleController().lifecycleActions.globals === LifecycleActions.shared)
    }

    @Test func theSharedVisibleStackIsInstalledExplicitlyAndOnlyOnce() {
        #expect(!LifecycleActions.globalActions.contains(VisibleStack.shared))
        VisibleStack.shared.install()
        VisibleStack.shared.install()
        defer { VisibleStack.shared.uninstall() }
        #expect(LifecycleActions.globalActions.filter { $0 == VisibleStack.shared }.count == 1)

        let screen = Screen("A", globals: .shared)
        LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
        #expect(VisibleStack.shared.top === screen)
        LifecycleActions.dispatch(.didDisappear(animated: true), to: screen)
        #expect(VisibleStack.shared.hosts.isEmpty)

        VisibleStack.shared.uninstall()
        #expect(!LifecycleActions.globalActions.contains(VisibleStack.shared))
    }
}

@Suite("Registration at scale and in both lists")
@MainActor
struct RegistrationScaleTests {
    let log = EventLog()
    let registry = LifecycleActions()

    /// Each registration looked for an equal action among all the registered ones: 20,000 took 18 s in a debug
    /// build. Completing in the normal test time is the evidence here; the order, the duplicates and the removals
    /// are asserted.
    @Test func tenThousandActionsOnOneHost() {
        // A fifth under a sanitizer: this runs on the main actor, and at full size under TSan it held the main actor
        // long enough to starve the other main-actor tests past their time limit.
        let count = sanitized ? 2_000 : 10_000
        let screen = Screen("A", globals: registry)
        let actions = (0..<count).map { recordingAction("a\($0)", log: log, identifier: "a\($0)") }
        // Checked in bulk: an `#expect` per action costs more than the registration it checks.
        let returned = actions.map { screen.registerLifecycleAction($0) }
        #expect(zip(returned, actions).allSatisfy { $0 === $1 })
        // An equal action (same identifier) is not added again; the registered one is returned.
        #expect(screen.registerLifecycleAction(recordingAction("stand-in", log: log, identifier: "a1")) === actions[1])
        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(log.lines == (0..<count).map { "a\($0) didLoad A" })

        let removed = stride(from: 0, to: count, by: 2).map { screen.removeLifecycleAction(actions[$0]) }
        #expect(removed.allSatisfy { $0 })
        #expect(!screen.removeLifecycleAction(actions[0]))
        log.clear()
        LifecycleActions.dispatch(.didLoad, to: screen)
        #expect(log.lines == stride(from: 1, to: count, by: 2).map { "a\($0) didLoad A" })
        // A removed identifier can be registered again, at the end.
        #expect(screen.registerLifecycleAction(actions[0]) === actions[0])
        #expect(screen.lifecycleActions.actions.last === actions[0])
    }

    /// Registrations, removals and reads in a seeded random order give what a plain array would: a removal leaves a
    /// gap that a later read squeezes out, so the order and the returned actions must not notice.
    @Test func anyMixOfRegistrationsRemovalsAndReadsMatchesAPlainList() {
        var model: [LifecycleAction] = []
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var mismatches: [String] = []
        for step in 0..<4_000 {
            let identifier = "id\(next(150))"
            switch next(5) {
            case 0, 1:
                let action = LifecycleAction(identifier: identifier)
                let expected = model.first { $0.identifier == identifier } ?? action
                if !model.contains(expected) { model.append(action) }
                if registry.register(action) !== expected { mismatches.append("register \(identifier) at \(step)") }
            case 2, 3:
                let present = model.contains { $0.identifier == identifier }
                model.removeAll { $0.identifier == identifier }
                if registry.remove(LifecycleAction(identifier: identifier)) != present {
                    mismatches.append("remove \(identifier) at \(step)")
                }
            default:
                if registry.actions.map(ObjectIdentifier.init) != model.map(ObjectIdentifier.init) {
                    mismatches.append("read at \(step)")
                }
            }
        }
        #expect(mismatches.isEmpty)
        #expect(registry.actions.map(ObjectIdentifier.init) == model.map(ObjectIdentifier.init))
    }

    /// As in the seed, the global list and a host's list are separate: one action in both runs once for each.
    @Test func anActionRegisteredGloballyAndOnAHostRunsTwice() {
        let screen = Screen("A", globals: registry)
        let action = recordingAction("both", log: log)
        registry.register(action)
        screen.registerLifecycleAction(action)
        LifecycleActions.dispatch(.didAppear(animated: false), to: screen)
        #expect(log.lines == ["both didAppear(animated: false) A", "both didAppear(animated: false) A"])
    }
}
