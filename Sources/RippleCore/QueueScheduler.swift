import Dispatch
import Synchronization

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
        let (work, token) = DispatchWorkToken.make(action)
        queue.async(execute: work)
        return token
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
        let (work, token) = DispatchWorkToken.make(action)
        let nanoseconds = max(0, Self.nanoseconds(of: delay))
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: work)
        return token
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

/// Cancels a not-yet-started `DispatchWorkItem`; reads as cancelled once the work was cancelled or has run, as
/// ``CancelToken/isCancelled`` promises (a `DispatchWorkItem` that has run is not `isCancelled`).
private final class DispatchWorkToken: CancelToken, @unchecked Sendable {
    // DispatchWorkItem is thread-safe; it is only declared non-Sendable on some platforms.
    private let work: DispatchWorkItem
    private let end: WorkEnd

    /// Set by the work once it has run. A box of its own: the work capturing the token would make a cycle (the
    /// token holds the work, which keeps its block).
    private final class WorkEnd: Sendable {
        let ran = Atomic<Bool>(false)
    }

    private init(_ work: DispatchWorkItem, _ end: WorkEnd) {
        self.work = work
        self.end = end
    }

    /// A work item running `action`, and its token.
    static func make(_ action: @escaping @Sendable () -> Void) -> (DispatchWorkItem, DispatchWorkToken) {
        let end = WorkEnd()
        let work = DispatchWorkItem {
            action()
            end.ran.store(true, ordering: .releasing)
        }
        return (work, DispatchWorkToken(work, end))
    }

    func cancel() {
        work.cancel()
    }

    var isCancelled: Bool {
        work.isCancelled || end.ran.load(ordering: .acquiring)
    }
}
