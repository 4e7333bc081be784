import RippleCore

// Invariants: a `MainActorTestScheduler` owns no clock of its own; it schedules onto the `TestScheduler` it was made
// from, so main-actor deliveries and the `debounce`/`delay`/`timeout` work on that scheduler fall due on one virtual
// clock, in one order (due time, then scheduling order). Its actions run on the thread that advances that clock;
// each checks first that this is the main actor and stops with a message naming the scheduler otherwise, so a test
// that advances from a background thread gets that message, not a data race or the runtime's executor trap.

extension TestScheduler {
    /// A main-actor view of this scheduler's virtual clock, for the main-actor APIs (`subscribeOnMainActor(on:)`,
    /// `withBlock(on:_:)` with a `@MainActor` block, `onMainActorOutput(on:_:)`).
    ///
    /// What it delivers runs when this scheduler's clock is advanced past it, inside `advance`, so a `@MainActor`
    /// test reads the view model's state right after `advance(by:)` — no `Task.yield()`:
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let model = SearchModel(clock: scheduler, main: scheduler.mainActor)
    /// model.query = "riv"
    /// scheduler.advance(by: .milliseconds(300))
    /// #expect(model.results == ["river", "rivet"])
    /// ```
    ///
    /// Advance the clock from `@MainActor` code (a `@MainActor` test): the actions it delivers run on the thread
    /// that advances.
    public var mainActor: MainActorTestScheduler { MainActorTestScheduler(clock: self) }
}

/// A ``TestScheduler``'s virtual clock as a `MainActorScheduling` scheduler: see ``TestScheduler/mainActor``.
public struct MainActorTestScheduler: MainActorScheduling {
    /// The scheduler whose clock this one shares.
    public let clock: TestScheduler

    /// A main-actor view of `clock` (the same as `clock.mainActor`).
    public init(clock: TestScheduler) {
        self.clock = clock
    }

    public var now: Duration { clock.now }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        clock.schedule(Self.onMainActor(action))
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        clock.schedule(after: delay, Self.onMainActor(action))
    }

    /// Moves the shared clock forward by `interval` (``TestScheduler/advance(by:)``), from the main actor: the
    /// main-actor work that falls due runs before this returns.
    @MainActor
    public func advance(by interval: Duration = .zero) {
        clock.advance(by: interval)
    }

    /// Moves the shared clock forward to `instant` (``TestScheduler/advance(to:)``), from the main actor.
    @MainActor
    public func advance(to instant: Duration) {
        clock.advance(to: instant)
    }

    /// Runs every action scheduled on the shared clock until none is left (``TestScheduler/run()``), from the
    /// main actor.
    @MainActor
    public func run() {
        clock.run()
    }

    private static func onMainActor(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        {
            // The main queue is the main actor's executor (see `MainQueue`); `fatalError` keeps the message in -O.
            if !MainQueue.isCurrent {
                programmerErrorInTesting(
                    "TestScheduler.mainActor has main-actor work due, but the clock was advanced off the main actor: "
                        + "advance the TestScheduler from @MainActor code (mark the test @MainActor)")
            }
            action()
        }
    }
}
