import RippleCore

extension Signal {
    /// Delivers every event on `scheduler`, in the order they were sent, whatever order the scheduler runs its work
    /// in (see `ScheduledHandOff`).
    public func deliver(on scheduler: some Scheduling) -> Signal {
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let handOff = ScheduledHandOff<ScheduledEvent<Value, Failure>>()
            @Sendable func hand(_ event: ScheduledEvent<Value, Failure>) {
                guard handOff.enqueue(event) else { return }
                scheduler.schedule { handOff.deliverDue { $0.send(to: downstream) } }
            }
            let subscription = upstream.subscribe(SignalSubscriber(
                value: { hand(.value($0)) },
                error: { hand(.error($0)) },
                complete: { hand(.complete) }))
            return Disposer {
                subscription.dispose()
                handOff.cancel()
            }
        }
    }
}
