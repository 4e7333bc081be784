import RippleCore

/// Trailing-edge quiet-period filter: a value reaches the downstream node once `interval` passes with no newer value.
///
/// Invariants: at most one delivery is scheduled at a time (a newer value cancels the older one's); the delivered
/// value is the last one received before the quiet period.
///
/// `@unchecked Sendable`: `pending` is only touched under `edgeLock`.
final class DebounceTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let interval: Duration
    let scheduler: any Scheduling
    private var pending: (any CancelToken)?

    init(interval: Duration, scheduler: any Scheduling) {
        self.interval = interval
        self.scheduler = scheduler
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let snapshot = senders.snapshot()
        let work = scheduler.schedule(after: interval) { [weak self] in
            self?.emit(value, after: snapshot, context: context)
        }
        let previous = edgeLock.withLock { () -> (any CancelToken)? in
            defer { pending = work }
            return pending
        }
        previous?.cancel()
    }

    deinit {
        pending?.cancel()
    }
}

extension Node {
    /// A node receiving a value only after `interval` passes with no newer one: typing "h", "he", …, "hello" quickly
    /// yields "hello" once. This is EasyReact's `throttle:queue:` (which is a debounce; Ripple's ``throttle(_:on:latest:)``
    /// rate-limits instead, as everywhere else). The current value is debounced too.
    public final func debounce(_ interval: Duration, on scheduler: some Scheduling) -> Node<Value> {
        requirePositive(interval, "Node.debounce(_:on:)")
        return derive("debounce", DebounceTransform(interval: interval, scheduler: scheduler))
    }
}
