import Dispatch

// Invariants: a `MainActorScheduling` scheduler runs every action it is given isolated to the main actor (on the
// main queue, or on a test's virtual clock advanced from main-actor code), one at a time, in scheduling order for
// equal due times. The main-actor APIs (`subscribeOnMainActor`, `withBlock(on:_:)` with a `@MainActor` block, the
// plumber's `onMainActor…` handlers) take `some MainActorScheduling`, so a scheduler that cannot promise this — a
// background `QueueScheduler`, `.immediate`, a plain `TestScheduler` — is a compile error there, not a data race.

/// A scheduler whose work runs on the main actor: `.main` in an app, `TestScheduler.mainActor` (RippleTesting) in a
/// test, where advancing the virtual clock runs the delivered closures before `advance` returns.
///
/// Conform only a scheduler whose every action runs isolated to the main actor; the main-actor APIs call
/// `MainActor.assumeIsolated` inside the actions they schedule.
public protocol MainActorScheduling: Scheduling {}

extension MainActorScheduling {
    /// Runs a `@MainActor` `action` as soon as the scheduler can, on the main actor.
    @discardableResult
    public func scheduleOnMainActor(_ action: @escaping @MainActor @Sendable () -> Void) -> any CancelToken {
        schedule { MainActor.assumeIsolated(action) }
    }
}

/// The main queue as a ``MainActorScheduling`` scheduler: the default of every main-actor API.
///
/// Work is always enqueued, never run inline, even when scheduled from the main thread, so it arrives in the order
/// it was scheduled (FIFO), which separate tasks do not promise. On Linux the main queue drains only under
/// `dispatchMain()`, a `RunLoop` or Swift concurrency's main executor (see ``QueueScheduler``).
public struct MainQueueScheduler: MainActorScheduling {
    private let queue = QueueScheduler(.main)

    public init() {}

    public var now: Duration { queue.now }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        queue.schedule(action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        queue.schedule(after: delay, action)
    }
}

extension MainActorScheduling where Self == MainQueueScheduler {
    /// The main queue, where the main actor runs (see ``MainQueueScheduler``).
    ///
    /// Where a parameter takes any `Scheduling` (`deliver(on: .main)`, `debounce(_:on: .main)`), `.main` is the
    /// ``QueueScheduler`` of the main queue; where it takes `some MainActorScheduling`, it is this type. Both run work
    /// on the main queue.
    public static var main: MainQueueScheduler { MainQueueScheduler() }
}
