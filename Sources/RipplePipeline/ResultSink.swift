import RippleCore

/// How a running packet refers to its sink: unretained, so passing it from stage to stage costs nothing. Whoever
/// runs the packet holds the sink (``Plumber/process(_:)``, the task of an asynchronous stage, an escaped ``Next``).
@usableFromInline
typealias SinkRef<P: Packet> = Unmanaged<ResultSink<P>>

/// Collects the first outcome of one ``Plumber/process(_:portNumber:)`` call and cancels that call's asynchronous
/// stages when the awaiting task is cancelled.
///
/// `@unchecked Sendable`: every stored property is guarded by `lock`.
@usableFromInline
final class ResultSink<P: Packet>: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<PipelineResult<P>, Never>?
    private var isCancelled = false
    private var tasks: [Task<Void, Never>] = []

    func install(_ continuation: CheckedContinuation<PipelineResult<P>, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Resumes the awaiting caller with the first outcome; later outcomes (a fan-out) are ignored here.
    func deliver(_ result: PipelineResult<P>) {
        let taken = lock.withLock { () -> CheckedContinuation<PipelineResult<P>, Never>? in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: result)
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
