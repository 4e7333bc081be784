import RippleCore

/// Moves each value, and everything downstream of it, onto a scheduler.
final class DeliverTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let scheduler: any Scheduling

    init(scheduler: any Scheduling) {
        self.scheduler = scheduler
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let snapshot = senders.snapshot()
        scheduler.schedule { [weak self] in
            self?.emit(value, after: snapshot, context: context)
        }
    }
}

extension Node {
    /// A node that changes — and runs its listeners and downstream transforms — on `scheduler` (`deliverOn:`).
    public final func deliver(on scheduler: some Scheduling) -> Node<Value> {
        derive("deliverOn", DeliverTransform(scheduler: scheduler))
    }
}
