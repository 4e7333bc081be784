#if canImport(Glibc)
import Glibc
#endif
import Foundation
import RippleCore
import RipplePipes
import RippleTesting
import Testing

/// Issue 29: a value user code owns (an argument, a return value, a tuple value) may be freed during a call, and its
/// deinit may use the call's process (`ActionProcess.current`), which takes the process's lock. So no such value may
/// be released while the process's lock is held: the thread would wait for itself. The debug build released these
/// values where the source drops them; the optimiser moved some releases under the lock. Each case runs in a child
/// process with a watchdog (a self-deadlock is a hang, which the watchdog turns into a failure) and checks which
/// call each value's deinit saw; CI runs them in debug, in release and with `-Osize`.
@Suite struct ReleaseOutsideLockTests {
    /// An argument an action replaced (`changeArgument`) while a later action's copy of it is the last reference:
    /// freed after that action returns, before the call takes its lock again.
    @Test func aReplacedArgumentIsFreedOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if !ReleaseScenarios.replacedArgument() { exit(2) }
        }
    }

    /// Return values: the one a later action replaces, and the last, through plain and skippable actions.
    @Test func replacedReturnValuesAreFreedOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if !ReleaseScenarios.replacedReturnValues() { exit(2) }
        }
    }

    /// Tuple values: replaced by the setter, replaced inside `updateTuple`, and left at the end of the call.
    @Test func tupleValuesAreFreedOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if !ReleaseScenarios.tupleValues() { exit(2) }
        }
    }

    /// The async path: a tuple value replaced, a return value replaced by a later action, the tuple at the end.
    @Test func asyncCallsFreeValuesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if await !ReleaseScenarios.asyncCall() { exit(2) }
        }
    }
}

struct ArgumentActions: Sendable {
    var take = ActionKey<NoisyValue, Int>("take")
}

/// Each returns whether every value was freed where expected, printing what it saw otherwise.
enum ReleaseScenarios {
    static func replacedArgument() -> Bool {
        let log = Recorder<String>()
        let pipe = ActionPipe(ArgumentActions())
        pipe.registerAction(\.take).action { process, _ in
            process.changeArgument(at: 1, to: NoisyValue("B", log))
            return 1
        }
        let second = ActionPipe(ArgumentActions())
        second.registerAction(\.take).action { process, value in
            // `value` is B; replacing it leaves the call's copy of the arguments B's only reference.
            process.changeArgument(at: 1, to: NoisyValue("C", log))
            return value.name == "B" ? 2 : -2
        }
        pipe.addPipe(second)
        let result = pipe.take(NoisyValue("A", log))
        let values = log.values
        // B goes inside the call, once the second action returned (upstream: the first's 1); C with the call's
        // frame; A, the caller's, after the call.
        return check(result == 2 && values.count == 3 && values.first == "B freed in take 1"
                     && Set(values.dropFirst()) == ["A freed in no call nil", "C freed in no call nil"], values)
    }

    static func replacedReturnValues() -> Bool {
        let log = Recorder<String>()
        let pipe = ActionPipe(NoisyActions())
        pipe.registerAction(\.make).action { _, name in NoisyValue(name, log) }
        let second = ActionPipe(NoisyActions())
        second.registerAction(\.make).skippableAction { _, _ in NoisyValue("second", log) }
        let third = ActionPipe(NoisyActions())
        third.registerAction(\.make).skippableAction { _, _ in nil }
        let fourth = ActionPipe(NoisyActions())
        fourth.registerAction(\.make).action { _, _ in NoisyValue("fourth", log) }
        pipe.addPipe(second).addPipe(third).addPipe(fourth)
        let last = pipe.make("first")
        let values = withExtendedLifetime(last) { log.values }
        // "first", replaced by "second", goes before the third action runs (inside the call); "second", replaced
        // by "fourth", once the call ended.
        return check(last?.name == "fourth" && values.count == 2
                     && values[0].hasPrefix("first freed in make ") && values[1] == "second freed in no call nil",
                     values)
    }

    static func tupleValues() -> Bool {
        let log = Recorder<String>()
        let pipe = ActionPipe(NoisyActions())
        pipe.registerAction(\.make).action { process, name in
            process.tuple = [NoisyValue("t1", log)]
            process.tuple = [NoisyValue("t2", log)]
            process.updateTuple { $0[0] = NoisyValue("t3", log) }
            return NoisyValue(name, log)
        }
        let last = pipe.make("result")
        let values = withExtendedLifetime(last) { log.values }
        return check(last?.name == "result"
                     && values == ["t1 freed in make nil", "t2 freed in make nil", "t3 freed in no call nil"], values)
    }

    static func asyncCall() async -> Bool {
        let log = Recorder<String>()
        let pipe = ActionPipe(NoisyActions())
        pipe.registerAction(\.make).asyncAction { process, name in
            process.tuple = [NoisyValue("t1", log)]
            process.tuple = [NoisyValue("t2", log)]
            return NoisyValue(name, log)
        }
        let second = ActionPipe(NoisyActions())
        second.registerAction(\.make).asyncAction { _, _ in
            await Task.yield()
            return NoisyValue("second", log)
        }
        pipe.addPipe(second)
        let last = await pipe.callAsync(\.make, "first")
        let values = withExtendedLifetime(last) { log.values }
        return check(last?.name == "second" && values.count == 3 && values[0] == "t1 freed in make nil"
                     && values[1].hasPrefix("first freed in make ") && values[2] == "t2 freed in no call nil",
                     values)
    }

    private static func check(_ passed: Bool, _ values: [String]) -> Bool {
        if !passed {
            let text = "unexpected deinit log: \(values)\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
        }
        return passed
    }
}
