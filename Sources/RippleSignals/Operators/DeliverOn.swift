import RippleCore

extension Signal {
    /// Delivers every event on `scheduler`, in the order they were sent.
    public func deliver(on scheduler: some Scheduling) -> Signal {
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            upstream.subscribe(SignalSubscriber(
                value: { value in scheduler.schedule { downstream.send(value) } },
                error: { error in scheduler.schedule { downstream.sendError(error) } },
                complete: { scheduler.schedule { downstream.sendComplete() } }))
        }
    }
}
