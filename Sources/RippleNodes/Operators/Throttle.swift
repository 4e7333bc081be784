import RippleCore

/// Trailing-edge quiet-period filter: a value reaches the downstream node once `interval` passes with no newer value.
///
/// `@unchecked Sendable`: `pending` is only touched under `edgeLock`.
final class ThrottleTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let interval: Duration
    let scheduler: any Scheduler
    private var pending: (any Cancellable)?

    init(interval: Duration, scheduler: any Scheduler) {
        self.interval = interval
        self.scheduler = scheduler
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let snapshot = senders.snapshot()
        let work = scheduler.schedule(after: interval) { [weak self] in
            self?.emit(value, after: snapshot, context: context)
        }
        let previous = edgeLock.withLock { () -> (any Cancellable)? in
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
    /// A node receiving a value only after `interval` passes with no newer one (EasyReact's `throttle:queue:`, which
    /// is a debounce): typing "h", "he", …, "hello" quickly yields "hello" once. The current value is throttled too.
    public final func throttle(_ interval: Duration, on scheduler: some Scheduler) -> Node<Value> {
        requirePositive(interval, "Node.throttle(_:on:)")
        return derive("throttle", ThrottleTransform(interval: interval, scheduler: scheduler))
    }

    /// The same operator as ``throttle(_:on:)``, under its usual name elsewhere.
    public final func debounce(_ interval: Duration, on scheduler: some Scheduler) -> Node<Value> {
        requirePositive(interval, "Node.debounce(_:on:)")
        return derive("debounce", ThrottleTransform(interval: interval, scheduler: scheduler))
    }
}
