@testable import RippleLifecycle
import Testing

/// Many hosts showing at once: the per-host once action and the visible stack scanned every host they had seen on
/// each event, so n hosts appearing and disappearing cost n² (20,000 hosts: about a minute in a debug build). Each
/// now keeps what it needs in the host's own marks; the stack's remaining cost, its compactions, is counted.
@Suite("Many hosts showing at once")
@MainActor
struct ManyHostsTests {
    final class Host: LifecycleHost {
        let lifecycleActions: LifecycleActionList
        let number: Int

        init(_ number: Int, globals: LifecycleActions) {
            self.number = number
            lifecycleActions = LifecycleActionList(globals: globals)
        }
    }

    @Test(arguments: ["last shown first", "first shown first", "every other, then the rest"])
    func twentyThousandHostsAppearAndDisappear(order: String) {
        let count = 20_000
        let registry = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: registry)
        var fired: [Int] = []
        registry.register(OnceLifecycleAction(scope: .perHost) { host, _ in fired.append((host as! Host).number) })
        let hosts = (0..<count).map { Host($0, globals: registry) }
        for host in hosts {
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        }
        #expect(fired == Array(0..<count))
        #expect((stack.top as? Host)?.number == count - 1)

        let order: [Int] = switch order {
        case "last shown first": Array((0..<count).reversed())
        case "first shown first": Array(0..<count)
        default: Array(stride(from: 0, to: count, by: 2)) + Array(stride(from: 1, to: count, by: 2))
        }
        for (done, index) in order.enumerated() {
            LifecycleActions.dispatch(.didDisappear(animated: false), to: hosts[index])
            if done == count / 2 - 1 {
                // Half gone: the other half still shows, in the order it appeared.
                let left = Set(order[(count / 2)...])
                #expect(stack.hosts.map { ($0 as! Host).number } == (0..<count).filter(left.contains))
            }
        }
        #expect(stack.hosts.isEmpty)
        #expect(stack.top == nil)
        // Appearing again fires nothing: each host was served once.
        for host in hosts.prefix(100) {
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        }
        #expect(fired.count == count)
        // Compactions visit each entry a bounded number of times: pushes double the stack between two, pops empty
        // half of it, and the two `hosts` reads above visit it once each.
        #expect(stack.compactedEntries <= 6 * count, "\(order): \(stack.compactedEntries) entries visited")
    }

    /// A host freed without disappearing leaves nothing behind once the stack grows past it, and another host,
    /// possibly at the freed one's address, is served and shown afresh.
    @Test func freedHostsAreDroppedAndNewOnesServed() {
        let registry = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: registry)
        var fired = 0
        registry.register(OnceLifecycleAction(scope: .perHost) { _, _ in fired += 1 })
        for round in 0..<1_000 {
            let host = Host(round, globals: registry)
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        }
        #expect(fired == 1_000)
        // Compacted as the stack doubled: never more than twice what is left after a compaction, at least 8.
        #expect(stack.storedEntryCount < 16)
        #expect(stack.top == nil)
        #expect(stack.storedEntryCount == 0)
    }
}
