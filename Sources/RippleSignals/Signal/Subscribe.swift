extension Signal {
    /// Subscribes with optional callbacks; the action runs now, for this subscription alone.
    ///
    /// The subscription lives as long as the signal's producer references its subscriber (as in GYSignal: a
    /// subscriber that is released disposes itself). Dispose the returned ``Disposer`` to end it earlier.
    @discardableResult @inlinable
    public func subscribe(value: (@Sendable (Value) -> Void)? = nil,
                          error: (@Sendable (Failure) -> Void)? = nil,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        subscribe(Subscriber(value: value, error: error, complete: complete, isFedSerially: deliversSerially))
    }
}

extension Signal where Failure == Never {
    /// Subscribes to a signal that cannot fail.
    @discardableResult @inlinable
    public func subscribe(value: (@Sendable (Value) -> Void)? = nil,
                          complete: (@Sendable () -> Void)? = nil) -> Disposer {
        subscribe(Subscriber(value: value, error: nil, complete: complete, isFedSerially: deliversSerially))
    }
}
