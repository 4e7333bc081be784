import RippleCore

// Invariants: the callbacks run on the main actor, through `scheduler` (the main queue by default, or a test's
// `TestScheduler.mainActor`), one event at a time and in order, exactly as `deliver(on: scheduler).subscribe(…)`;
// they are typed `@MainActor`, so a `@MainActor` class updates itself from them without `MainActor.assumeIsolated`.
// `scheduler` is `some MainActorScheduling`: one that does not run on the main actor does not compile. Where the
// signal can fail, `error:` is required (an error is never dropped silently); the subscription's lifetime and the
// returned disposer are those of `subscribe(value:error:complete:)`.

extension Signal {
    /// Delivers through a main-actor scheduler and subscribes with main-actor callbacks: the `@MainActor` form of
    /// `deliver(on: .main).subscribe(…)`, for updating a view model or a view.
    ///
    /// ```swift
    /// import Ripple
    ///
    /// enum LookupError: Error { case offline }
    ///
    /// @MainActor final class LookupModel {
    ///     var results: [String] = []
    ///     var message: String?
    ///     var token: Disposer?
    ///
    ///     func start(_ signal: Signal<[String], LookupError>) {
    ///         token = signal.subscribeOnMainActor(value: { [weak self] in self?.results = $0 },
    ///                                             error: { [weak self] _ in self?.message = "Offline" })
    ///     }
    /// }
    /// ```
    ///
    /// The callbacks run through `scheduler`: `.main` unless a test passes `TestScheduler.mainActor`, so that
    /// advancing the virtual clock delivers before `advance` returns.
    @inlinable
    public func subscribeOnMainActor(on scheduler: some MainActorScheduling = .main,
                                     value: (@MainActor @Sendable (Value) -> Void)? = nil,
                                     error: @escaping @MainActor @Sendable (Failure) -> Void,
                                     complete: (@MainActor @Sendable () -> Void)? = nil) -> Disposer {
        mainActorSubscription(on: scheduler, value: value, error: error, complete: complete)
    }

    /// The body of both `subscribeOnMainActor` forms.
    @inlinable
    func mainActorSubscription(on scheduler: some MainActorScheduling,
                               value: (@MainActor @Sendable (Value) -> Void)?,
                               error: (@MainActor @Sendable (Failure) -> Void)?,
                               complete: (@MainActor @Sendable () -> Void)?) -> Disposer {
        // A `MainActorScheduling` scheduler runs every callback on the main actor, which is what `assumeIsolated`
        // checks.
        deliver(on: scheduler).subscribe(
            value: { received in if let value { MainActor.assumeIsolated { value(received) } } },
            error: { failure in if let error { MainActor.assumeIsolated { error(failure) } } },
            complete: { if let complete { MainActor.assumeIsolated { complete() } } })
    }
}

extension Signal where Failure == Never {
    /// ``subscribeOnMainActor(on:value:error:complete:)`` for a signal that cannot fail: no `error:`.
    ///
    /// ```swift
    /// import Ripple
    ///
    /// @MainActor final class SearchModel {
    ///     var results: [String] = []
    ///     var token: Disposer?
    ///
    ///     func start(_ signal: Signal<[String], Never>) {
    ///         token = signal.subscribeOnMainActor(value: { [weak self] in self?.results = $0 })
    ///     }
    /// }
    /// ```
    @inlinable
    public func subscribeOnMainActor(on scheduler: some MainActorScheduling = .main,
                                     value: (@MainActor @Sendable (Value) -> Void)? = nil,
                                     complete: (@MainActor @Sendable () -> Void)? = nil) -> Disposer {
        mainActorSubscription(on: scheduler, value: value, error: nil, complete: complete)
    }
}
