extension Signal {
    /// Forwards the values of this signal and `others` as they come. The first error ends the result; it completes
    /// once every input has completed (GYSignal completes on the first one).
    public func merge(_ others: Signal...) -> Signal {
        merge(others)
    }

    /// Forwards the values of this signal and `others` as they come. Same as the variadic form.
    public func merge(_ others: [Signal]) -> Signal {
        let (inputs, depth) = Signal.upstreams([self] + others)
        return Signal(depth: depth) { downstream in
            let group = CompletionGroup<Value, Failure>(downstream: downstream)
            // Every input joins the group before any subscribes, so an input that completes synchronously cannot
            // complete the result early. Member 0 is registered from the start.
            var ids = [MemberSlots.sourceID]
            for _ in others {
                guard let id = group.enter() else { break }
                ids.append(id)
            }
            // `downstream` serialises what the inputs send from any thread, so they are attached with raw callbacks.
            let send: @Sendable (Value) -> Void = { downstream.send($0) }
            let sendError: @Sendable (Failure) -> Void = { downstream.sendError($0) }
            for (id, input) in Swift.zip(ids, inputs) {
                guard !downstream.isDisposed else { break }
                let disposer = input.attach(value: send, error: sendError, complete: { group.leave(id) })
                group.store(disposer, for: id)
            }
            return group
        }
    }
}

extension Signal {
    /// Forwards the values of every signal in `signals` as they come (GYSignal's `merge:` over an array whose length
    /// is known only at run time). An empty array gives a signal that completes at once.
    public static func merge(_ signals: [Signal]) -> Signal {
        guard let first = signals.first else { return .empty }
        return first.merge(Array(signals.dropFirst()))
    }
}
