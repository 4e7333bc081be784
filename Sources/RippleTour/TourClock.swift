import RippleCore

// A virtual clock for the app section, so it prints the same lines on every run and never waits: the section's own
// small copy of RippleTesting's `TestScheduler` and its `mainActor` view (the tour is an executable; RippleTesting
// links Swift Testing and XCTest, which an app or a tool should not). Tests of an app use RippleTesting instead.
//
// Invariants: work runs in due-time order, ties in scheduling order, on the thread that calls `advance(by:)`, never
// under the lock; `mainActor` schedules onto the same clock.

final class TourClock: Scheduling, Sendable {
    private struct Item {
        let due: Duration
        let id: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var items: [Item] = []
        var nextID = 0
    }

    private let state = Locked(State())

    var now: Duration { state.withLock { $0.now } }

    /// A main-actor view of this clock: what it runs, it runs on the thread advancing the clock, the main actor here.
    var mainActor: TourMainActorClock { TourMainActorClock(clock: self) }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        schedule(after: .zero, action)
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let id = state.withLock { state -> Int in
            let item = Item(due: state.now + max(delay, .zero), id: state.nextID, action: action)
            state.nextID += 1
            let index = state.items.firstIndex { $0.due > item.due } ?? state.items.endIndex
            state.items.insert(item, at: index)
            return item.id
        }
        return ClosureCancelToken { [weak self] in
            self?.state.withLock { state in state.items.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward, running everything that falls due on the way.
    @MainActor
    func advance(by interval: Duration = .zero) {
        let target = now + interval
        while let item = takeNext(dueBy: target) {
            item.action()
        }
        state.withLock { $0.now = target }
    }

    private func takeNext(dueBy limit: Duration) -> Item? {
        state.withLock { state in
            guard let first = state.items.first, first.due <= limit else { return nil }
            state.items.removeFirst()
            state.now = max(state.now, first.due)
            return first
        }
    }
}

/// ``TourClock`` as a main-actor scheduler: the clock is only advanced from the main actor (`advance` is
/// `@MainActor`), so everything it runs runs there.
struct TourMainActorClock: MainActorScheduling {
    let clock: TourClock

    var now: Duration { clock.now }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        clock.schedule(action)
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        clock.schedule(after: delay, action)
    }
}
