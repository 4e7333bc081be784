import RippleCore

extension Signal {
    /// Shifts every event — values, error and completion — later by `interval` on `scheduler`, keeping their order
    /// whatever order the scheduler runs its work in (see `ScheduledHandOff`).
    public func delay(_ interval: Duration, on scheduler: some Scheduling) -> Signal {
        requirePositive(interval, "Signal.delay(_:on:)")
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let pending = ScheduledWork()
            let handOff = ScheduledHandOff<SignalSubscriber<Value, Failure>.Event>()
            let upstream = source.subscribe(handOff.subscriber(sendingTo: downstream) {
                pending.schedule(on: scheduler, after: interval, $0)
            })
            return Disposer {
                upstream.dispose()
                pending.cancelAll()
                handOff.cancel()
            }
        }
    }
}

/// Scheduled work a subscription may still cancel. `@unchecked Sendable`: state guarded by `lock`.
///
/// Invariant: `items` holds an entry exactly for the work scheduled and not yet run — reserved (nil) before the
/// scheduler is called, then given its token unless the work already ran. So work that ran before its token came
/// back (a queue scheduler's thread can run it before `schedule(after:)` returns, and a `DispatchWorkItem` that ran
/// does not report itself cancelled) leaves nothing behind; keeping its token kept the work's event and downstream
/// until the subscription ended, one per event.
final class ScheduledWork: @unchecked Sendable {
    private let lock = Lock()
    private var items: [UInt64: (any CancelToken)?] = [:]
    private var nextID: UInt64 = 0
    private var cancelled = false

    func schedule(on scheduler: some Scheduling, after interval: Duration, _ action: @escaping @Sendable () -> Void) {
        let id = lock.withLock { () -> UInt64? in
            guard !cancelled else { return nil }
            defer { nextID += 1 }
            items[nextID] = .some(nil)
            return nextID
        }
        guard let id else { return }
        let work = scheduler.schedule(after: interval) { [self] in
            lock.withLock { _ = items.removeValue(forKey: id) }
            action()
        }
        let cancelNow = lock.withLock { () -> Bool in
            if cancelled { return true }
            // Still reserved: the work has not run yet (an immediate scheduler, or another thread, may have run it).
            if items.index(forKey: id) != nil { items[id] = work }
            return false
        }
        if cancelNow { work.cancel() }
    }

    func cancelAll() {
        let taken = lock.withLock { () -> [any CancelToken] in
            cancelled = true
            defer { items = [:] }
            return items.values.compactMap { $0 }
        }
        for work in taken { work.cancel() }
    }
}
