import Dispatch
import RippleCore
import RipplePipes
import RippleTesting
import Testing

/// Calls borrow their chain's plan without a lock: an action replaced or removed while calls run must stay alive
/// until those calls end, and be released as soon as the last of them has.
@Suite struct PlanLifetimeTests {
    final class Token: Sendable {}

    @Test func anActionReplacedDuringACallIsReleasedWhenTheCallEnds() {
        let tracker = LeakTracker()
        let pipe = ActionPipe(CounterActions())
        let next = ActionPipe(CounterActions())
        pipe.addPipe(next)
        do {
            let token = tracker.track(Token(), "replaced action's capture")
            pipe.registerAction(\.tick).action { process, number in
                withExtendedLifetime(token) {}
                // replaces itself, mid-call, with an action that captures nothing
                process.root(as: CounterActions.self)?.registerAction(\.tick).action { _, number in number * 10 }
                return number
            }
        }
        let aliveInLaterAction = Locked<[String]>([])
        next.registerAction(\.tick).action { process, _ in
            aliveInLaterAction.withLock { $0 = tracker.alive }
            return process.upstreamReturn(as: Int.self) ?? -1
        }

        #expect(pipe.tick(3) == 3)                        // the call runs the chain it started with…
        #expect(aliveInLaterAction.value == ["replaced action's capture"])
        #expect(tracker.alive.isEmpty)                    // …and lets the replaced action go when it ends
        #expect(pipe.tick(3) == 30)
    }

    @Test func anActionRemovedDuringANestedCallIsReleasedWhenTheOuterCallEnds() {
        let tracker = LeakTracker()
        let pipe = ActionPipe(CounterActions())
        do {
            let token = tracker.track(Token(), "removed action's capture")
            pipe.registerAction(\.tick).action { process, number in
                withExtendedLifetime(token) {}
                guard number > 0, let root = process.root(as: CounterActions.self) else { return number }
                let inner = root.tick(number - 1) ?? -1            // a nested call through the same pipe
                root.unregisterAction(\.tick)
                return inner + 1
            }
        }
        #expect(pipe.tick(2) == 2)
        #expect(tracker.alive.isEmpty)
        #expect(pipe.tick(2) == nil)
    }

    @Test(.tags(.stress)) func replacedActionsAreAllReleasedAfterConcurrentCalls() {
        let tracker = LeakTracker()
        let pipe = ActionPipe(CounterActions())
        let other = ActionPipe(CounterActions())
        pipe.addPipe(other)
        let replacements = 500
        let answered = Locked(0)

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                for round in 0..<replacements {
                    let token = tracker.track(Token(), "capture \(round)")
                    other.registerAction(\.tick).action { _, number in
                        withExtendedLifetime(token) {}
                        return number
                    }
                }
                other.unregisterAction(\.tick)
            } else {
                for call in 0..<2_000 where pipe.tick(call) ?? call == call {
                    answered.withLock { $0 += 1 }
                }
            }
        }
        #expect(answered.value == 3 * 2_000)
        #expect(tracker.trackedCount == replacements)
        #expect(tracker.alive.isEmpty)
    }
}
