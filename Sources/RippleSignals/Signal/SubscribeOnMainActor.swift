import RippleCore

// Invariants: the callbacks run on the main queue (so on the main thread, isolated to the main actor), one event at
// a time and in order, exactly as `deliver(on: .main).subscribe(…)`; they are typed `@MainActor`, so a `@MainActor`
// class updates itself from them without `MainActor.assumeIsolated`. The subscription's lifetime and the returned
// disposer are those of `subscribe(value:error:complete:)`.

extension Signal {
    /// Delivers on the main queue and subscribes with main-actor callbacks: the `@MainActor` form of
    /// `deliver(on: .main).subscribe(…)`, for updating a view model or a view.
    ///
    /// ```swift
    /// @MainActor final class SearchModel {
    ///     var results: [String] = []
    ///     var token: Disposer?
    ///     func start(_ signal: Signal<[String], Never>) {
    ///         token = signal.subscribeOnMainActor(value: { [weak self] in self?.results = $0 })
    ///     }
    /// }
    /// ```
    @inlinable
    public func subscribeOnMainActor(value: (@MainActor @Sendable (Value) -> Void)? = nil,
                              error: (@MainActor @Sendable (Failure) -> Void)? = nil,
                              complete: (@MainActor @Sendable () -> Void)? = nil) -> Disposer {
        // `deliver(on: .main)` runs every callback on the main queue, which the main actor's executor is.
        var onValue: (@Sendable (Value) -> Void)?
        if let value {
            onValue = { received in MainActor.assumeIsolated { value(received) } }
        }
        var onError: (@Sendable (Failure) -> Void)?
        if let error {
            onError = { failure in MainActor.assumeIsolated { error(failure) } }
        }
        var onComplete: (@Sendable () -> Void)?
        if let complete {
            onComplete = { MainActor.assumeIsolated { complete() } }
        }
        return deliver(on: QueueScheduler.main).subscribeReturningHandle(value: onValue, error: onError,
                                                                           complete: onComplete)
    }
}
