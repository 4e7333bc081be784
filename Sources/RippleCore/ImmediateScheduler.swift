/// Runs work synchronously, on the calling thread, at once.
///
/// Like Combine's `ImmediateScheduler`, it cannot wait: `schedule(after:)` ignores the delay and runs the work
/// immediately. Use a queue scheduler or a `TestScheduler` for real delays.
public struct ImmediateScheduler: Scheduler {
    public init() {}

    public var now: Duration {
        QueueScheduler.monotonicNow
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Cancellable {
        action()
        return ClosureCancellable.done
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        schedule(action)
    }
}

extension Scheduler where Self == ImmediateScheduler {
    /// Runs work synchronously on the calling thread.
    public static var immediate: ImmediateScheduler { ImmediateScheduler() }
}

extension ClosureCancellable {
    /// A cancellable whose work already finished; cancelling it does nothing.
    static var done: ClosureCancellable {
        let finished = ClosureCancellable()
        finished.cancel()
        return finished
    }
}
