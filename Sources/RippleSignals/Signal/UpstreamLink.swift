/// A weak reference to an operator's upstream subscriber, filled in right after the subscriber is made.
///
/// Operators such as `take` must stop their source from inside its callbacks, possibly before the source's action
/// has returned its disposer. Capturing the subscriber in its own callbacks would be a retain cycle, so they capture
/// this link instead. `@unchecked Sendable`: `target` is written once, before the subscriber can receive anything,
/// and only read afterwards.
final class UpstreamLink<Value: Sendable, Failure: Error>: @unchecked Sendable {
    weak var target: Subscriber<Value, Failure>?

    init() {}

    func dispose() {
        target?.dispose()
    }
}
