extension Signal {
    /// Forwards each value transformed by `transform`; errors and completion pass through.
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Signal<Output, Failure> {
        // `downstream` is only called from this subscriber's callbacks, hence `deliversSerially`.
        Signal<Output, Failure>(deliversSerially: true) { downstream in
            subscribe(Subscriber(
                value: { value in downstream.send(transform(value)) },
                error: downstream.sendError,
                complete: downstream.sendComplete,
                isFedSerially: deliversSerially))
        }
    }
}
