import RippleCore

extension Signal {
    /// Delivers every event on `scheduler`, in the order they were sent.
    public func deliver(on scheduler: some Scheduling) -> Signal {
        let recipe = Recipe(self, scheduler)
        return Signal(body: .action { downstream in
            let scheduler = recipe.parameters
            return recipe.upstream.subscribe(SignalSubscriber(
                value: { value in scheduler.schedule { downstream.send(value) } },
                error: { error in scheduler.schedule { downstream.sendError(error) } },
                complete: { scheduler.schedule { downstream.sendComplete() } }))
        }, depth: recipe.depth)
    }
}
