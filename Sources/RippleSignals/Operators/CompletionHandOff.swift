import RippleCore

// A value an operator sends outside its lock, and a completion that arrives meanwhile on another thread: the
// completion must not overtake the value, or the subscriber, completed, drops it. `throttle`'s window end and
// `debounce`'s timer hand their value over this way.
//
// Invariants:
// - `senders` counts the senders between taking their value under the lock (`begin`) and `end` after sending it.
//   More than one overlap when a concurrent scheduler runs a second timer while the first still sends.
// - A completion that finds a sender records itself, with the value it would have flushed, and sends nothing: the
//   last sender to end (`finishHandOff`) sends that value, then the completion, after every sender's value. A flag
//   instead of the count let the first sender to end complete while another was still sending, whose value the
//   completed subscriber then dropped (`debounceCompletionDuringOverlappingHandOffs`).

/// The state of one value's hand-off, kept in an operator's locked state.
struct CompletionHandOff<Value> {
    private var senders = 0
    private var completes = false
    private var flushed: Value?

    /// Under the lock, as the sender takes its value.
    mutating func begin() {
        senders += 1
    }

    /// Under the lock, in the completion: true when the completion is left to the hand-off, which sends `pending`
    /// (the value the completion flushes) before it.
    mutating func deferCompletion(flushing pending: Value?) -> Bool {
        guard senders > 0 else { return false }
        completes = true
        flushed = pending
        return true
    }

    /// Under the lock, once the sender sent its value: whether a completion was left to it (the last sender out),
    /// and what it flushes.
    mutating func end() -> (completes: Bool, flushed: Value?) {
        senders -= 1
        guard senders == 0, completes else { return (false, nil) }
        completes = false
        defer { flushed = nil }
        return (true, flushed)
    }
}

extension Locked {
    /// Call after sending the handed-over value: sends what a completion left to the hand-off, then the completion.
    func finishHandOff<Value, Failure>(_ handOff: WritableKeyPath<State, CompletionHandOff<Value>>,
                                       to downstream: SignalSubscriber<Value, Failure>) {
        let (completes, flushed) = withLock { $0[keyPath: handOff].end() }
        guard completes else { return }
        if let flushed { downstream.send(flushed) }
        downstream.sendComplete()
    }
}
