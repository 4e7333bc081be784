import RippleLifecycle
import Testing

/// Counts every event per phase and `animated`, and checks the visible stack against a model after each
/// appearance change. Main-actor state: the tasks hop here for every event.
@MainActor
private final class Accounting {
    var counts: [String: Int] = [:]
    var visible: Set<ObjectIdentifier> = []
    var stackMismatches = 0

    func count(_ key: String) {
        counts[key, default: 0] += 1
    }
}

/// An action on every phase that counts "<prefix> <phase> <animated>".
@MainActor
private func countingAction(_ prefix: String, _ accounting: Accounting) -> LifecycleAction {
    BlockLifecycleAction(on: Set(LifecyclePhase.allCases)) { phase, _, animated in
        accounting.count("\(prefix) \(phase) \(animated)")
    }
}

@Suite("Stress: many hosts × many events from several tasks hopping to the main actor")
struct LifecycleStressTests {
    static let tasks = 8
    static let hostsPerTask = 25
    static let rounds = 10

    @Test(.tags(.stress)) func everyEventReachesEveryActionExactlyOnce() async {
        let (registry, accounting, stack, globalOnce) = await MainActor.run {
            let registry = LifecycleActions()
            let accounting = Accounting()
            let stack = VisibleStack()
            stack.install(in: registry)
            registry.register(countingAction("global", accounting))
            let globalOnce = OnceLifecycleAction { _, _ in accounting.count("global once") }
            registry.register(globalOnce)
            registry.register(OnceLifecycleAction(scope: .perHost) { _, _ in accounting.count("per-host once") })
            return (registry, accounting, stack, globalOnce)
        }

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    let hosts = await MainActor.run {
                        (0..<Self.hostsPerTask).map { _ in LifecycleController(globals: registry) }
                    }
                    for host in hosts {
                        await MainActor.run { LifecycleActions.dispatch(.didLoad, to: host) }
                    }
                    for round in 0..<Self.rounds {
                        let animated = round.isMultiple(of: 2)
                        for host in hosts {
                            // A per-host action that lives for one round: registered, used, removed.
                            let roundAction = await MainActor.run {
                                host.registerLifecycleAction(countingAction("round", accounting))
                            }
                            for event: LifecycleEvent in [.willAppear(animated: animated),
                                                          .didAppear(animated: animated),
                                                          .willDisappear(animated: animated),
                                                          .didDisappear(animated: animated)] {
                                await MainActor.run {
                                    LifecycleActions.dispatch(event, to: host)
                                    switch event.phase {
                                    case .didAppear: accounting.visible.insert(ObjectIdentifier(host))
                                    case .didDisappear: accounting.visible.remove(ObjectIdentifier(host))
                                    default: return
                                    }
                                    let onStack = stack.hosts.map { ObjectIdentifier($0) }
                                    if Set(onStack) != accounting.visible || onStack.count != accounting.visible.count {
                                        accounting.stackMismatches += 1
                                    }
                                }
                                await Task.yield()
                            }
                            await MainActor.run { _ = host.removeLifecycleAction(roundAction) }
                        }
                    }
                    await MainActor.run {
                        #expect(hosts.allSatisfy { $0.lifecycleActions.actions.isEmpty })
                    }
                }
            }
        }

        await MainActor.run {
            let hosts = Self.tasks * Self.hostsPerTask
            let perAnimated = hosts * Self.rounds / 2
            var expected: [String: Int] = ["global didLoad false": hosts, "global once": 1, "per-host once": hosts]
            for phase in ["willAppear", "didAppear", "willDisappear", "didDisappear"] {
                for animated in [true, false] {
                    expected["global \(phase) \(animated)"] = perAnimated
                    expected["round \(phase) \(animated)"] = perAnimated
                }
            }
            #expect(accounting.counts == expected)
            #expect(accounting.stackMismatches == 0)
            #expect(stack.hosts.isEmpty)
            #expect(globalOnce.liveHost == nil)
            #expect(registry.actions.count == 4)
        }
    }
}
