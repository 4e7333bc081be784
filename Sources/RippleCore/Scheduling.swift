/// Where and when work runs: now on this thread, on a dispatch queue, on the main queue, or on virtual time.
///
/// Every time-based operator in Ripple takes a scheduler, so tests can pass `RippleTesting.TestScheduler` and
/// control time exactly instead of sleeping.
public protocol Scheduling: Sendable {
    /// The scheduler's clock, measured from an arbitrary fixed origin. Only differences between readings matter.
    var now: Duration { get }

    /// Runs `action` as soon as the scheduler can.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken

    /// Runs `action` once `delay` has passed on this scheduler's clock. A zero or negative delay means
    /// "as soon as possible", as with `DispatchQueue.asyncAfter` and a deadline in the past.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken
}
