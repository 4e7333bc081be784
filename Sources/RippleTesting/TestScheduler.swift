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
    /// Where an action sits in the queue: its due time, then its scheduling number, which breaks ties in
    /// scheduling order.
    private struct Slot {
        let due: Duration
        let id: UInt64

        func precedes(_ other: Slot) -> Bool {
            due != other.due ? due < other.due : id < other.id
        }
    }

    // Guarded by the lock inside `Locked`. `queue` is a binary min-heap of slots, so scheduling and taking the next
    // action cost O(log n) however many are pending (a sorted array cost O(n) each: 100,000 actions took minutes).
    // `actions` holds the pending actions by id; cancelling removes the action there at once (freeing what it
    // captured) and leaves its slot in the heap, skipped when it comes up and swept out once stale slots
    // outnumber live ones.
    private struct State {
        var now: Duration = .zero
        var queue: [Slot] = []
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var runLimit = 1_000_000
        /// Slots compared or moved to keep the heap ordered, for the scale test.
        var queueSteps = 0

        mutating func push(_ slot: Slot) {
            queue.append(slot)
            var child = queue.count - 1
            while child > 0 {
                queueSteps += 1
                let parent = (child - 1) / 2
                guard queue[child].precedes(queue[parent]) else { break }
                queue.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> Slot {
            let first = queue[0]
            let last = queue.removeLast()
            guard !queue.isEmpty else { return first }
            queue[0] = last
            var parent = 0
            while true {
                queueSteps += 1
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < queue.count, queue[left].precedes(queue[smallest]) { smallest = left }
                if right < queue.count, queue[right].precedes(queue[smallest]) { smallest = right }
                guard smallest != parent else { return first }
                queue.swapAt(parent, smallest)
                parent = smallest
            }
        }

        /// Drops the slots of cancelled actions once they are more than half the heap: a sorted array is a heap.
        mutating func sweepIfStale() {
            guard queue.count > 2 * actions.count + 64 else { return }
            queueSteps += queue.count
            queue = queue.filter { actions[$0.id] != nil }.sorted { $0.precedes($1) }
        }
    }

    private let state = Locked(State())

    /// The most actions ``run()`` performs before it decides the work never drains (a self-rescheduling action), and
    /// the most ``advance(to:)`` and ``advance(by:)`` perform at one instant before they decide the clock can never
    /// move (an action rescheduling itself with no delay): either then stops with a programmer error.
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
        state.withLock { $0.actions.count }
    }

    /// Slots compared or moved so far to keep the queue in order: a count, for the test that scheduling stays
    /// O(log n) at 100,000 actions.
    var queueSteps: Int {
        state.withLock { $0.queueSteps }
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
            state.actions[id] = action
            state.push(Slot(due: state.now + max(delay, .zero), id: id))
            return id
        }
        return ClosureCancelToken { [weak self] in
            self?.state.withLock { state in
                if state.actions.removeValue(forKey: id) != nil { state.sweepIfStale() }
            }
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
        let runLimit = runLimit
        var lastInstant = now
        var performedAtInstant = 0
        while let (at, action) = takeNext(dueBy: instant) {
            if at != lastInstant {
                lastInstant = at
                performedAtInstant = 0
            }
            // Work that keeps scheduling work at the same instant never lets the clock reach `instant`: stop with
            // a message rather than hang the test run.
            if performedAtInstant == runLimit {
                programmerErrorInTesting(
                    "TestScheduler.advance(to:) performed \(performedAtInstant) actions at \(at) (runLimit) without "
                        + "the clock moving; an action that reschedules itself with no delay never lets time pass")
            }
            action()
            performedAtInstant += 1
        }
        // An action may have advanced the clock past `instant` (an advance from inside an action, or another
        // thread's): the clock never goes back.
        state.withLock { $0.now = max($0.now, instant) }
    }

    /// Runs every scheduled action, advancing the clock to each one's due time, until nothing is left.
    public func run() {
        let runLimit = runLimit
        var performed = 0
        while let (_, action) = takeNext(dueBy: nil) {
            // Stop only when work is still there after `runLimit` actions: a run that drains in exactly that many
            // is fine.
            if performed == runLimit {
                programmerErrorInTesting(
                    "TestScheduler.run() performed \(performed) actions (runLimit) without draining; an action that "
                        + "reschedules itself never ends under run(): use advance(by:)")
            }
            action()
            performed += 1
        }
    }

    /// The next action due by `limit` (any, for `nil`), taken out of the queue, and the clock's reading for it.
    private func takeNext(dueBy limit: Duration?) -> (at: Duration, action: @Sendable () -> Void)? {
        state.withLock { state in
            while let first = state.queue.first {
                guard let action = state.actions[first.id] else {
                    _ = state.popFirst()            // a cancelled action's slot
                    continue
                }
                if let limit, first.due > limit { return nil }
                _ = state.popFirst()
                state.actions[first.id] = nil
                state.now = max(state.now, first.due)
                return (state.now, action)
            }
            return nil
        }
    }
}

func programmerErrorInTesting(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Ripple: \(message)", file: file, line: line)
}
