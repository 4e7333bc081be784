import RippleCore

/// How a running packet refers to its sink: unretained, so passing it from stage to stage costs nothing. Whoever
/// runs the packet holds the sink (``Plumber/process(_:)``, the task of an asynchronous stage, an escaped ``Next``);
/// see ``Borrowed``.
@usableFromInline
typealias SinkRef<P: Packet> = Borrowed<ResultSink<P>>

/// Collects the first outcome of one ``Plumber/process(_:portNumber:)`` or synchronous `runSerially(_:_:)`
/// call, and cancels the asynchronous stages of a `process` call when the awaiting task is cancelled.
///
/// `@unchecked Sendable`: every stored property is guarded by `lock`.
@usableFromInline
final class ResultSink<P: Packet>: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<PipelineResult<P>, Never>?
    private var isCancelled = false
    private var tasks: [Task<Void, Never>] = []
    /// The first outcome, for a synchronous caller that reads it once the chain has returned.
    private var first: PipelineResult<P>?
    /// The first stage that kept its `next` past `receive`: what the synchronous `runSerially` names when no
    /// outcome came back.
    private var keptAt: Int?

    func install(_ continuation: CheckedContinuation<PipelineResult<P>, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Resumes the awaiting caller with the first outcome; later outcomes (a fan-out) are not taken here. Returns
    /// whether it took `result`: the caller counts an outcome nobody took as unhandled.
    @discardableResult
    func deliver(_ result: PipelineResult<P>) -> Bool {
        let (isFirst, taken) = lock.withLock { () -> (Bool, CheckedContinuation<PipelineResult<P>, Never>?) in
            let isFirst = first == nil
            if isFirst { first = result }
            defer { continuation = nil }
            return (isFirst, continuation)
        }
        taken?.resume(returning: result)
        return isFirst
    }

    /// The first outcome delivered so far, if any.
    var firstResult: PipelineResult<P>? {
        lock.withLock { first }
    }

    /// The stage at `index` kept its `next` when `receive` returned.
    func stageKeptNext(at index: Int) {
        lock.withLock { if keptAt == nil { keptAt = index } }
    }

    var stageThatKeptNext: Int? {
        lock.withLock { keptAt }
    }

    func add(_ task: Task<Void, Never>) {
        let cancelNow = lock.withLock { () -> Bool in
            if isCancelled { return true }
            tasks.append(task)
            return false
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let running = lock.withLock { () -> [Task<Void, Never>] in
            isCancelled = true
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
    }
}
