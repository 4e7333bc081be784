import RippleCore

extension Signal {
    /// Runs the source's action (the subscription itself) on `scheduler`. Disposing before it ran cancels it.
    public func subscribe(on scheduler: some Scheduling) -> Signal {
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let serial = SerialDisposer()
            let work = scheduler.schedule {
                guard !downstream.isDisposed else { return }
                // At the downstream's level at least, on whichever thread runs this (see `SubscriptionTrampoline`).
                serial.replace(with: subscribing(above: downstream.level) {
                    upstream.subscribe(SignalSubscriber(
                        value: downstream.send,
                        error: downstream.sendError,
                        complete: downstream.sendComplete))
                })
            }
            return Disposer {
                work.cancel()
                serial.dispose()
            }
        }
    }
}
