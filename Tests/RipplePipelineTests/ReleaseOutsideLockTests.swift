#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// What a plumber lets go of when it is reconfigured or freed — a chain, its handlers and stages, and whatever they
/// captured — is released after its locks, so user code in a deinit there may use the plumber. Each scenario runs in
/// a process of its own: under a lock it hung (the lock is not re-entrant), which the watchdog turns into a failure.
@Suite("A plumber releases what it replaced outside its locks")
struct PlumberReleaseOutsideLockTests {
    @Test func aReplacedHandlerIsFreedOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if !PlumberReleaseScenarios.replacedHandler() { exit(2) }
        }
    }

    @Test func aReplacedHandlersDeinitMayReconfigureThePlumber() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 60)
            if !PlumberReleaseScenarios.reconfiguredFromTheDeinit() { exit(2) }
        }
    }
}

/// Runs `body` when freed.
private final class OnDeinit: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    deinit { body() }
}

/// Each returns whether the deinit ran and could read the plumber.
enum PlumberReleaseScenarios {
    /// The output handler is replaced while no port holds the old chain (none is wired): the old handler's capture
    /// is freed then, and its deinit reads the plumber.
    static func replacedHandler() -> Bool {
        let plumber = Plumber<Number>()
        let seen = Locked<UnhandledOutcomes?>(nil)
        do {
            let probe = OnDeinit { [weak plumber] in seen.withLock { $0 = plumber?.unhandled } }
            plumber.onOutput { _ in withExtendedLifetime(probe) {} }
        }
        plumber.onOutput { _ in }
        return seen.value == UnhandledOutcomes(outputs: 0, blocked: 0, failures: 0)
    }

    /// The deinit of the replaced handler's capture reconfigures the plumber: a rebuild inside a rebuild.
    static func reconfiguredFromTheDeinit() -> Bool {
        let plumber = Plumber<Number>()
        let blocked = Locked<[Int]>([])
        do {
            let probe = OnDeinit { [weak plumber] in
                plumber?.addPipeline(Wall()).onBlocked { packet, _ in blocked.withLock { $0.append(packet.value) } }
            }
            plumber.onOutput { _ in withExtendedLifetime(probe) {} }
        }
        // No port yet: the plumber's slot holds the only reference to the old chain.
        plumber.onOutput { _ in }
        let port = NumberPort()
        plumber.addPort(port)
        _ = port.emit(Number(7), portNumber: 0)
        return blocked.value == [7]
    }
}
