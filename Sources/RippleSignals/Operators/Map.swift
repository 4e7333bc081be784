extension Signal {
    /// Forwards each value transformed by `transform`; errors and completion pass through.
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Signal<Output, Failure> {
        Signal<Output, Failure> { downstream in
            subscribe(Subscriber(
                value: { value in downstream.send(transform(value)) },
                error: downstream.sendError,
                complete: downstream.sendComplete))
        }
    }
}
