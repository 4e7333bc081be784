extension Signal {
    /// Forwards only the values for which `isIncluded` returns true; errors and completion pass through.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        // `downstream` is only called from this subscriber's callbacks, hence `deliversSerially`.
        Signal(deliversSerially: true) { downstream in
            subscribe(Subscriber(
                value: { value in if isIncluded(value) { downstream.send(value) } },
                error: downstream.sendError,
                complete: downstream.sendComplete,
                isFedSerially: deliversSerially))
        }
    }
}
