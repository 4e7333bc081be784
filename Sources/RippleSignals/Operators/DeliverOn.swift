import RippleCore

extension Signal {
    /// Delivers every event on `scheduler`, in the order they were sent, whatever order the scheduler runs its work
    /// in (see `ScheduledHandOff`).
    public func deliver(on scheduler: some Scheduling) -> Signal {
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let handOff = ScheduledHandOff<SignalSubscriber<Value, Failure>.Event>()
            let subscription = upstream.subscribe(handOff.subscriber(sendingTo: downstream) { scheduler.schedule($0) })
            return Disposer {
                subscription.dispose()
                handOff.cancel()
            }
        }
    }
}
