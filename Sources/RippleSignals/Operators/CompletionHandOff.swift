import RippleCore

// A value an operator sends outside its lock, and a completion that arrives meanwhile on another thread: the
// completion must not overtake the value, or the subscriber, completed, drops it. `throttle`'s window end and
// `debounce`'s timer hand their value over this way.
//
// Invariants:
// - `active` is true exactly while a sender is between taking its value under the lock (`begin`) and `end` after
//   sending it.
// - A completion that finds it active records itself, with the value it would have flushed, and sends nothing: the
//   sender's `finishHandOff` sends that value, then the completion, after its own value.

/// The state of one value's hand-off, kept in an operator's locked state.
struct CompletionHandOff<Value> {
    private(set) var active = false
    private var completes = false
    private var flushed: Value?

    /// Under the lock, as the sender takes its value.
    mutating func begin() {
        active = true
    }

    /// Under the lock, in the completion: true when the completion is left to the hand-off, which sends `pending`
    /// (the value the completion flushes) before it.
    mutating func deferCompletion(flushing pending: Value?) -> Bool {
        guard active else { return false }
        completes = true
        flushed = pending
        return true
    }

    /// Under the lock, once the sender sent its value: whether a completion was left to it, and what it flushes.
    mutating func end() -> (completes: Bool, flushed: Value?) {
        active = false
        defer { flushed = nil }
        return (completes, flushed)
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
