import RippleCore

extension Signal {
    /// Runs the source's action (the subscription itself) on `scheduler`. Disposing before it ran cancels it.
    public func subscribe(on scheduler: some Scheduling) -> Signal {
        let recipe = Recipe(self, scheduler)
        return Signal(body: .action { downstream in
            let serial = SerialDisposer()
            let work = recipe.parameters.schedule {
                guard !downstream.isDisposed else { return }
                serial.replace(with: recipe.upstream.subscribe(SignalSubscriber(
                    value: downstream.send,
                    error: downstream.sendError,
                    complete: downstream.sendComplete)))
            }
            return Disposer {
                work.cancel()
                serial.dispose()
            }
        }, depth: recipe.depth)
    }
}
