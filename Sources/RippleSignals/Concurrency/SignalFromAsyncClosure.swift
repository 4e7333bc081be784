// Invariants: each subscription runs `operation` in a task of its own; its result is the one value, then the
// completion; what it throws is the error. Disposing the subscription cancels the task, and a cancelled task's
// result is not delivered.

extension Signal {
    /// A signal that runs `operation` in a new task per subscription (Combine's `Future` for async code): the
    /// returned value, then completion, or the thrown error. Disposing the subscription cancels the task.
    ///
    /// ```swift
    /// let user = Signal(operation: { () async throws(APIError) -> User in try await api.user(id) })
    /// ```
    public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws(Failure) -> Value) {
        self.init { subscriber in
            let task = Task(priority: priority) {
                do throws(Failure) {
                    let value = try await operation()
                    guard !Task.isCancelled else { return }
                    subscriber.send(value)
                    subscriber.sendComplete()
                } catch {
                    guard !Task.isCancelled else { return }
                    subscriber.sendError(error)
                }
            }
            return Disposer { task.cancel() }
        }
    }
}
