extension Signal {
    /// Forwards only the values for which `isIncluded` returns true; errors and completion pass through.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { downstream in
            subscribe(Subscriber(
                value: { value in if isIncluded(value) { downstream.send(value) } },
                error: downstream.sendError,
                complete: downstream.sendComplete))
        }
    }
}
