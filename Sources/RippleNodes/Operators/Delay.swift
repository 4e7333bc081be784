import RippleCore

/// Passes every value on after a fixed interval, through a scheduler, in setting order (see `ScheduledValue`).
final class DelayTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let interval: Duration
    let scheduler: any Scheduling
    let handOff = ScheduledHandOff<ScheduledValue<Value>>()

    init(interval: Duration, scheduler: any Scheduling) {
        self.interval = interval
        self.scheduler = scheduler
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        hand(value, senders: senders, context: context, to: handOff) { scheduler.schedule(after: interval, $0) }
    }
}

extension Node {
    /// A node receiving every value, the current one included, `interval` later on `scheduler` (`delay:queue:`).
    public final func delay(_ interval: Duration, on scheduler: some Scheduling) -> Node<Value> {
        requirePositive(interval, "Node.delay(_:on:)")
        return derive("delay", DelayTransform(interval: interval, scheduler: scheduler))
    }
}
