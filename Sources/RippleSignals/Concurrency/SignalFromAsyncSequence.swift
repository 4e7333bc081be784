extension Signal {
    /// A signal that iterates `sequence` in a new task per subscription: each element is a value, the end is a
    /// completion, a thrown error is the signal's error. Disposing the subscription cancels the task.
    public init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence)
    where Sequence.Element == Value, Sequence.Failure == Failure {
        self.init { subscriber in
            let task = Task {
                do throws(Failure) {
                    var iterator = sequence.makeAsyncIterator()
                    while let value = try await iterator.next(isolation: nil) {
                        subscriber.send(value)
                        if Task.isCancelled { return }
                    }
                    subscriber.sendComplete()
                } catch {
                    subscriber.sendError(error)
                }
            }
            return Disposer { task.cancel() }
        }
    }
}
