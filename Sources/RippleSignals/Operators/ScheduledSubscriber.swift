import RippleCore

extension ScheduledHandOff {
    /// A subscriber that queues each event here, then has `schedule` run a piece of work that sends the oldest queued
    /// event to `downstream`: events keep the order they were sent in whatever order the scheduler runs its work
    /// (`deliver(on:)`, `delay`; see `ScheduledHandOff`).
    func subscriber<Value: Sendable, Failure: Error>(
        sendingTo downstream: SignalSubscriber<Value, Failure>,
        schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void
    ) -> SignalSubscriber<Value, Failure> where Item == SignalSubscriber<Value, Failure>.Event {
        @Sendable func hand(_ event: Item) {
            guard enqueue(event) else { return }
            schedule { self.deliverDue { downstream.send($0) } }
        }
        return SignalSubscriber(
            value: { hand(.value($0)) },
            error: { hand(.error($0)) },
            complete: { hand(.complete) })
    }
}
