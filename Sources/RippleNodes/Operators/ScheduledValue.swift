import RippleCore

/// A value a transform hands to a scheduler (`deliver(on:)`, `delay`), with what it emits it with: it waits in the
/// transform's `ScheduledHandOff`, so that values reach `to` in the order they were set, whatever order the scheduler
/// runs its work in (a concurrent queue may run the later first, and `to` would rest at the older value).
struct ScheduledValue<Value: Sendable>: Sendable {
    let value: Value
    let senders: SenderSnapshot
    let context: (any Sendable)?
}

extension Transform where Input == Output {
    /// Queues `value` in `handOff`, then schedules, through `schedule`, the work that emits the oldest queued value.
    func hand(_ value: Input, senders: SenderList, context: (any Sendable)?,
              to handOff: ScheduledHandOff<ScheduledValue<Input>>,
              scheduling schedule: (@escaping @Sendable () -> Void) -> Void) {
        guard handOff.enqueue(ScheduledValue(value: value, senders: senders.snapshot(), context: context)) else {
            return
        }
        schedule { [weak self] in
            handOff.deliverDue { item in self?.emit(item.value, after: item.senders, context: item.context) }
        }
    }
}
