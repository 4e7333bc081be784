import Dispatch
import RippleCore

// Listeners whose block is `@MainActor`, so a `@MainActor` view model updates itself from a node without
// `MainActor.assumeIsolated`.
//
// Invariants: the block runs on the main queue only, once per value, in setting order (the same order
// `withBlock(on:_:)` keeps). The scheduler must be `.main`: a `@MainActor` block run anywhere else would be the data
// race its type promises cannot happen, so any other queue stops with a message naming the API.
//
// Overload choice: an unannotated closure keeps picking the `@Sendable` form (Swift prefers no global-actor
// conversion), so existing listeners do not change; a closure written `{ @MainActor value in … }` or a `@MainActor`
// method passed by name can only be this form.

extension Listening {
    /// Calls a `@MainActor` `block` with each value on the main queue, in setting order. `scheduler` must be `.main`.
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
    @discardableResult
    public func withBlock(on scheduler: QueueScheduler,
                          _ block: @escaping @MainActor (Value) -> Void) -> any CancelToken {
        requireMainQueue(scheduler, "Listening.withBlock(on:_:)")
        return mainActorListener(on: scheduler) { value, _ in block(value) }
    }

    /// The context-carrying form of the `@MainActor` `withBlock(on:_:)` above.
    @discardableResult
    public func withContextBlock(on scheduler: QueueScheduler,
                                 _ block: @escaping @MainActor (Value, (any Sendable)?) -> Void) -> any CancelToken {
        requireMainQueue(scheduler, "Listening.withContextBlock(on:_:)")
        return mainActorListener(on: scheduler, block)
    }

    private func mainActorListener(on scheduler: QueueScheduler,
                                   _ block: @escaping @MainActor (Value, (any Sendable)?) -> Void) -> any CancelToken {
        withContextBlock { value, context in
            // The main queue runs on the main actor's executor, which is what `assumeIsolated` checks.
            scheduler.schedule { MainActor.assumeIsolated { block(value, context) } }
        }
    }
}

/// Stops unless `scheduler` is the main queue (`.main`), the only place a `@MainActor` block may run.
func requireMainQueue(_ scheduler: QueueScheduler, _ api: String) {
    if scheduler.queue.getSpecific(key: mainQueueKey) != true {
        programmerError(
            "\(api) with a @MainActor block needs the .main scheduler, got the queue '\(scheduler.queue.label)'")
    }
}

/// Marks the main queue itself (not queues that target it), so it can be recognised: on Linux `DispatchQueue.main`
/// is a new wrapper object at every call, so `===` cannot tell.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
