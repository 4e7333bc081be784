import RippleCore

/// A `Scheduling` that holds the work it is given and runs it newest first, when the test calls
/// ``runNewestFirst()``. `Scheduling` promises no order between two pieces of work (a `QueueScheduler` over a
/// concurrent queue may start the later first, on another thread); this scheduler makes that order happen every time,
/// so a test can check that an operator keeps its events' order whatever the scheduler does. Delays are ignored, and
/// its clock reads zero: only the order matters here (use ``TestScheduler`` for time).
///
/// ```swift
/// let scheduler = NewestFirstScheduler()
/// let source = MutableNode(0)
/// let moved = source.deliver(on: scheduler)
/// source.value = 1
/// source.value = 2
/// scheduler.runNewestFirst()
/// print(moved.value ?? -1)   // 2: the node ends with the last value set
/// ```
public final class NewestFirstScheduler: Scheduling, @unchecked Sendable {
    // `@unchecked Sendable`: `work` guards itself. Each piece of work with its number, for its token.
    private let work = Locked<(next: Int, held: [(id: Int, action: @Sendable () -> Void)])>((0, []))

    public init() {}

    public var now: Duration { .zero }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let id = work.withLock { work in
            work.next += 1
            work.held.append((work.next, action))
            return work.next
        }
        // Cancelling drops the work if it has not run yet.
        return ClosureCancelToken { [weak self] in
            self?.work.withLock { $0.held.removeAll { $0.id == id } }
        }
    }

    /// How many pieces of work are held.
    public var pendingCount: Int {
        work.withLock { $0.held.count }
    }

    /// Runs everything held, newest first, including work that work schedules meanwhile, until nothing is left.
    public func runNewestFirst() {
        while let next = work.withLock({ $0.held.popLast() }) { next.action() }
    }
}
