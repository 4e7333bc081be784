import RippleCore

// The main-actor forms of the plumber's handlers, for a `@MainActor` view model or UI that updates itself from a
// plumber without `MainActor.assumeIsolated`.
//
// Invariants: the handler runs on the main actor, always enqueued through a `MainActorScheduling` scheduler (the main
// queue by default, never inline, even when the outcome happens on the main thread; or a test's
// `TestScheduler.mainActor`, where it runs when the virtual clock is advanced), so outcomes reach it in the order they
// happened; the wrapper is an ordinary handler, so replacing, `unhandled` and `process` work as for the other forms.

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
    ///
    /// `scheduler` is `.main` unless a test passes `TestScheduler.mainActor`, so that advancing the virtual clock
    /// runs the handler before `advance` returns.
    @discardableResult
    public func onMainActorOutput(on scheduler: some MainActorScheduling = .main,
                                  _ handler: @escaping @MainActor (P) -> Void) -> Plumber<P> {
        onOutput { packet in
            runOnMainActor(scheduler) { handler(packet) }
        }
    }

    /// Sets what hears about blocked packets, run on the main actor: the main-actor form of ``onBlocked(_:)``, which
    /// it replaces (and is replaced by). Enqueued on the main queue as ``onMainActorOutput(on:_:)`` is.
    @discardableResult
    public func onMainActorBlocked(on scheduler: some MainActorScheduling = .main,
                                   _ handler: @escaping @MainActor (P, StageInfo) -> Void) -> Plumber<P> {
        onBlocked { packet, stage in
            runOnMainActor(scheduler) { handler(packet, stage) }
        }
    }

    /// Sets what hears about failed packets, run on the main actor: the main-actor form of ``onFailure(_:)``, which
    /// it replaces (and is replaced by). Enqueued on the main queue as ``onMainActorOutput(on:_:)`` is.
    @discardableResult
    public func onMainActorFailure(on scheduler: some MainActorScheduling = .main,
                                   _ handler: @escaping @MainActor (P, StageInfo, any Error) -> Void) -> Plumber<P> {
        onFailure { packet, stage, error in
            runOnMainActor(scheduler) { handler(packet, stage, error) }
        }
    }
}

/// Enqueues `body` through `scheduler` (for `.main`, the main queue, the main actor's executor): FIFO, unlike separate
/// tasks, whose order the language does not promise.
private func runOnMainActor(_ scheduler: some MainActorScheduling, _ body: @escaping @MainActor @Sendable () -> Void) {
    scheduler.scheduleOnMainActor(body)
}
