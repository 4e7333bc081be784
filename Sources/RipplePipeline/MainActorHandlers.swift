import RippleCore

// The main-actor forms of the plumber's handlers, for a `@MainActor` view model or UI that updates itself from a
// plumber without `MainActor.assumeIsolated`.
//
// Invariants: the handler runs on the main actor, always enqueued on the main queue (never inline, even when the
// outcome happens on the main thread), so outcomes reach it in the order they happened, as `.main` delivers; the
// wrapper is an ordinary handler, so replacing, `unhandled` and `process` work as for the other forms.

extension Plumber {
    /// Sets what receives the packets that leave the last stage, run on the main actor: the main-actor form of
    /// ``onOutput(_:)``, which it replaces (and is replaced by).
    ///
    /// ```swift
    /// @MainActor final class ShareViewModel {
    ///     var link: String?
    ///     func bind(to plumber: Plumber<SharePacket>) {
    ///         plumber.onMainActorOutput { [weak self] packet in self?.link = packet.link }
    ///     }
    /// }
    /// ```
    ///
    /// The handler is enqueued on the main queue, in the order the packets left the last stage, even when that
    /// happened on the main thread: it runs once the current main-queue work returns.
    @discardableResult
    public func onMainActorOutput(_ handler: @escaping @MainActor (P) -> Void) -> Plumber<P> {
        onOutput { packet in
            runOnMainActor { handler(packet) }
        }
    }

    /// Sets what hears about blocked packets, run on the main actor: the main-actor form of ``onBlocked(_:)``, which
    /// it replaces (and is replaced by). Enqueued on the main queue as ``onMainActorOutput(_:)`` is.
    @discardableResult
    public func onMainActorBlocked(_ handler: @escaping @MainActor (P, StageInfo) -> Void) -> Plumber<P> {
        onBlocked { packet, stage in
            runOnMainActor { handler(packet, stage) }
        }
    }

    /// Sets what hears about failed packets, run on the main actor: the main-actor form of ``onFailure(_:)``, which
    /// it replaces (and is replaced by). Enqueued on the main queue as ``onMainActorOutput(_:)`` is.
    @discardableResult
    public func onMainActorFailure(_ handler: @escaping @MainActor (P, StageInfo, any Error) -> Void) -> Plumber<P> {
        onFailure { packet, stage, error in
            runOnMainActor { handler(packet, stage, error) }
        }
    }
}

/// Enqueues `body` on the main queue, the main actor's executor, through `.main`: FIFO, unlike separate tasks, whose
/// order the language does not promise.
private func runOnMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    QueueScheduler.main.schedule {
        MainActor.assumeIsolated(body)
    }
}
