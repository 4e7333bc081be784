/// Runs work synchronously, on the calling thread, at once.
///
/// Like Combine's `SynchronousScheduler`, it cannot wait: `schedule(after:)` ignores the delay and runs the work
/// immediately. Use a queue scheduler or a `TestScheduler` for real delays.
public struct SynchronousScheduler: Scheduling {
    public init() {}

    public var now: Duration {
        QueueScheduler.monotonicNow
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        action()
        return ClosureCancelToken.done
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        schedule(action)
    }
}

extension Scheduling where Self == SynchronousScheduler {
    /// Runs work synchronously on the calling thread.
    public static var immediate: SynchronousScheduler { SynchronousScheduler() }
}

extension ClosureCancelToken {
    /// A cancellable whose work already finished; cancelling it does nothing.
    static var done: ClosureCancelToken {
        let finished = ClosureCancelToken()
        finished.cancel()
        return finished
    }
}
