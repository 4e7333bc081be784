/// Where and when work runs: now on this thread, on a dispatch queue, on the main queue, or on virtual time.
///
/// Every time-based operator in Ripple takes a scheduler, so tests can pass `RippleTesting.TestScheduler` and
/// control time exactly instead of sleeping.
///
/// No order is promised between two pieces of work, nor that they never run at once: a `QueueScheduler` over a
/// concurrent queue may start the later first, on another thread. Ripple's operators that hand several events to a
/// scheduler (`deliver(on:)`, `delay`, a node's `deliver(on:)`) queue the events themselves and keep their order
/// whatever the scheduler does; write a custom operator the same way.
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
