import Dispatch

/// Runs work asynchronously on a `DispatchQueue`.
///
/// `.main` targets the main queue. On Linux the main queue only drains while the main thread runs `dispatchMain()`,
/// a `RunLoop`, or Swift concurrency's main executor (an `async` `main`, or Swift Testing); a command-line tool that
/// returns from a synchronous `main` never runs work scheduled there.
public struct QueueScheduler: Scheduling {
    public let queue: DispatchQueue

    public init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    static var monotonicNow: Duration {
        .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
    }

    public var now: Duration {
        Self.monotonicNow
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let work = DispatchWorkItem(block: action)
        queue.async(execute: work)
        return DispatchWorkToken(work)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let work = DispatchWorkItem(block: action)
        let nanoseconds = max(0, Self.nanoseconds(of: delay))
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: work)
        return DispatchWorkToken(work)
    }

    static func nanoseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (wholeSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return wholeSeconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

extension Scheduling where Self == QueueScheduler {
    /// Runs work asynchronously on `queue`.
    public static func queue(_ queue: DispatchQueue) -> QueueScheduler { QueueScheduler(queue) }

    /// Runs work asynchronously on the main queue (see ``QueueScheduler`` for Linux).
    public static var main: QueueScheduler { QueueScheduler(.main) }
}

/// Cancels a not-yet-started `DispatchWorkItem`.
private final class DispatchWorkToken: CancelToken, @unchecked Sendable {
    // DispatchWorkItem is thread-safe; it is only declared non-Sendable on some platforms.
    private let work: DispatchWorkItem

    init(_ work: DispatchWorkItem) {
        self.work = work
    }

    func cancel() {
        work.cancel()
    }

    var isCancelled: Bool {
        work.isCancelled
    }
}
