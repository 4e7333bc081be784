import RippleCore

// Invariants: the body runs at most once per `InstallOnce`, whichever threads race to call `run`; a caller that loses
// the race returns only after the winner's body finished (the body runs under the lock), so once any call returned,
// the installation is complete. The body must not call `run` on the same object (the lock is not re-entrant).

/// Runs an installation once per process, thread-safely: the first caller runs it (under the lock, so a racing
/// caller returns only after it finished), every later caller does nothing.
final class InstallOnce: Sendable {
    private let done = Locked(false)

    init() {}

    /// Runs `body` if no call ran it before. Returns whether this call ran it.
    @discardableResult
    func run(_ body: () -> Void) -> Bool {
        done.withLock { done in
            guard !done else { return false }
            body()
            done = true
            return true
        }
    }

    var hasRun: Bool {
        done.value
    }
}
