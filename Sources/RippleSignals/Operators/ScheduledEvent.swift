import RippleCore

/// One event of a subscription handed to a scheduler (`deliver(on:)`, `delay`), waiting in its `ScheduledHandOff` so
/// that events reach the downstream in the order they were sent, whatever order the scheduler runs its work in.
enum ScheduledEvent<Value: Sendable, Failure: Error>: Sendable {
    case value(Value)
    case error(Failure)
    case complete

    /// Sends this event to `downstream`.
    func send(to downstream: SignalSubscriber<Value, Failure>) {
        switch self {
        case .value(let value): downstream.send(value)
        case .error(let error): downstream.sendError(error)
        case .complete: downstream.sendComplete()
        }
    }
}
