import RippleCore

/// Moves each value, and everything downstream of it, onto a scheduler, in setting order (see `ScheduledValue`).
final class DeliverTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let scheduler: any Scheduling
    let handOff = ScheduledHandOff<ScheduledValue<Value>>()

    init(scheduler: any Scheduling) {
        self.scheduler = scheduler
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        hand(value, senders: senders, context: context, to: handOff) { scheduler.schedule($0) }
    }
}

extension Node {
    /// A node that changes — and runs its listeners and downstream transforms — on `scheduler` (`deliverOn:`).
    public final func deliver(on scheduler: some Scheduling) -> Node<Value> {
        derive("deliverOn", DeliverTransform(scheduler: scheduler))
    }
}
