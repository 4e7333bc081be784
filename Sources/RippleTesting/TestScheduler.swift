import RippleCore

/// A scheduler on virtual time: nothing runs until the test advances the clock.
///
/// Work runs in due-time order; work due at the same instant runs in the order it was scheduled. Work runs on the
/// thread that calls ``advance(by:)`` or ``run()``, never under the scheduler's lock, so it may schedule more work.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let search = input.throttle(.seconds(1), on: scheduler)
/// input.value = "hello"
/// scheduler.advance(by: .seconds(1))   // "hello" arrives now, exactly
/// ```
public final class TestScheduler: Scheduling, @unchecked Sendable {
    private struct Item {
        let due: Duration
        let id: UInt64
        let action: @Sendable () -> Void
    }

    // Guarded by `lock`. `items` is kept sorted by (due, id).
    private struct State {
        var now: Duration = .zero
        var items: [Item] = []
        var nextID: UInt64 = 0
        var runLimit = 1_000_000
    }

    private let state = Locked(State())

    /// The most actions ``run()`` performs before it decides the work never drains (a self-rescheduling action).
    /// At least 1: a smaller limit stops with a programmer error naming the value.
    public var runLimit: Int {
        get { state.withLock { $0.runLimit } }
        set {
            if newValue < 1 {
                programmerErrorInTesting("TestScheduler.runLimit needs a count ≥ 1, got \(newValue)")
            }
            state.withLock { $0.runLimit = newValue }
        }
    }

    /// - Parameter now: the clock's starting reading.
    public init(now: Duration = .zero) {
        state.withLock { $0.now = now }
    }

    public var now: Duration {
        state.withLock { $0.now }
    }

    /// How many scheduled actions have not run or been cancelled yet.
    public var pendingCount: Int {
        state.withLock { $0.items.count }
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID += 1
            let item = Item(due: state.now + max(delay, .zero), id: id, action: action)
            // Insert after every item due at the same time or earlier: ties keep scheduling order.
            let index = state.items.firstIndex { $0.due > item.due } ?? state.items.endIndex
            state.items.insert(item, at: index)
            return id
        }
        return ClosureCancelToken { [weak self] in
            self?.state.withLock { state in state.items.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward by `interval`, running every action that falls due on the way, including actions
    /// those actions schedule within the window. The clock reads each action's due time while it runs.
    public func advance(by interval: Duration = .zero) {
        if interval < .zero {
            programmerErrorInTesting("TestScheduler.advance(by:) needs an interval ≥ 0, got \(interval)")
        }
        advance(to: now + interval)
    }

    /// Moves the clock forward to `instant`, running every action due up to and including it.
    public func advance(to instant: Duration) {
        if instant < now {
            programmerErrorInTesting("TestScheduler.advance(to:) cannot go back in time: \(instant) < now \(now)")
        }
        while let item = takeNext(dueBy: instant) {
            item.action()
        }
        state.withLock { $0.now = instant }
    }

    /// Runs every scheduled action, advancing the clock to each one's due time, until nothing is left.
    public func run() {
        let runLimit = runLimit
        var performed = 0
        while let item = takeNext(dueBy: nil) {
            // Stop only when work is still there after `runLimit` actions: a run that drains in exactly that many
            // is fine.
            if performed == runLimit {
                programmerErrorInTesting(
                    "TestScheduler.run() performed \(performed) actions (runLimit) without draining; an action that "
                        + "reschedules itself never ends under run(): use advance(by:)")
            }
            item.action()
            performed += 1
        }
    }

    private func takeNext(dueBy limit: Duration?) -> Item? {
        state.withLock { state in
            guard let first = state.items.first else { return nil }
            if let limit, first.due > limit { return nil }
            state.items.removeFirst()
            state.now = max(state.now, first.due)
            return first
        }
    }
}

func programmerErrorInTesting(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Ripple: \(message)", file: file, line: line)
}
