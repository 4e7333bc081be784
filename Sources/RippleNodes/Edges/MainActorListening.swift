import RippleCore

// Listeners whose block is `@MainActor`, so a `@MainActor` view model updates itself from a node without
// `MainActor.assumeIsolated`.
//
// Invariants: the block runs on the main actor only, through a `MainActorScheduling` scheduler (the main queue, or a
// test's `TestScheduler.mainActor`), once per value, in setting order (the same order `withBlock(on:_:)` keeps). A
// scheduler that does not run on the main actor (a background queue, `.immediate`, a plain `TestScheduler`) is not a
// `MainActorScheduling` and does not compile here: a `@MainActor` block run anywhere else would be the data race its
// type promises cannot happen.
//
// Overload choice: `.main` here is the main queue's `MainQueueScheduler`; a closure passed with `.main` or a test's
// main-actor scheduler takes this form (annotated `{ @MainActor value in … }` or not), any other scheduler the
// `@Sendable` form. Both run the block on the main queue for `.main`.

extension Listening {
    /// Calls a `@MainActor` `block` with each value on the main actor, through `scheduler`, in setting order.
    ///
    /// ```swift
    /// import Ripple
    ///
    /// @MainActor final class TitleViewModel {
    ///     var title = ""
    ///     let bag = CancelBag()
    ///
    ///     init(showing node: Node<String>) {
    ///         node.listened(by: bag).withBlock(on: .main) { @MainActor [weak self] value in
    ///             self?.title = value
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// `scheduler` is `.main`, or `TestScheduler.mainActor` in a test, so that advancing the virtual clock delivers
    /// before `advance` returns.
    @discardableResult
    public func withBlock(on scheduler: some MainActorScheduling,
                          _ block: @escaping @MainActor (Value) -> Void) -> any CancelToken {
        mainActorListener(on: scheduler) { value, _ in block(value) }
    }

    /// The context-carrying form of the `@MainActor` `withBlock(on:_:)` above.
    @discardableResult
    public func withContextBlock(on scheduler: some MainActorScheduling,
                                 _ block: @escaping @MainActor (Value, (any Sendable)?) -> Void) -> any CancelToken {
        mainActorListener(on: scheduler, block)
    }

    private func mainActorListener(on scheduler: some MainActorScheduling,
                                   _ block: @escaping @MainActor (Value, (any Sendable)?) -> Void) -> any CancelToken {
        withContextBlock { value, context in
            // A `MainActorScheduling` scheduler runs its work on the main actor, which is what `assumeIsolated`
            // checks.
            scheduler.schedule { MainActor.assumeIsolated { block(value, context) } }
        }
    }
}
