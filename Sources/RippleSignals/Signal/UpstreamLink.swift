/// A non-owning reference to an operator's upstream subscriber, filled in right after the subscriber is made.
///
/// Operators such as `take` must stop their source from inside its callbacks, possibly before the source's action
/// has returned its disposer. Capturing the subscriber in its own callbacks would be a retain cycle, so they capture
/// this link instead. It is `unowned` rather than `weak`: the link is only used from inside that subscriber's own
/// callbacks, while the subscriber is delivering and therefore alive, and a weak reference would give the subscriber
/// a side table, sending every retain and release of it down the runtime's slow path.
/// `@unchecked Sendable`: `target` is written once, before the subscriber can receive anything, and only read
/// afterwards.
final class UpstreamLink<Value: Sendable, Failure: Error>: @unchecked Sendable {
    unowned var target: SignalSubscriber<Value, Failure>?

    init() {}

    /// Call only from the target's own callbacks.
    func dispose() {
        target?.dispose()
    }
}
