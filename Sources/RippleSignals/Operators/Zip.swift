extension Signal {
    /// Pairs values by position (Rx zip): the n-th tuple holds the n-th value of this signal and of each of `others`.
    ///
    /// Values wait in per-input queues until every input has one. The first error ends the result; it completes as
    /// soon as an input has completed and its queue is empty, since no further tuple can form. For GYSignal's own
    /// "zip" (latest values once every input has sent), use ``combineLatest(_:)``.
    ///
    /// ```swift
    /// requestA.zip(requestB)   // Signal<(A, B), Failure>
    /// ```
    public func zip<each Other: Sendable>(
        _ others: repeat Signal<each Other, Failure>
    ) -> Signal<(Value, repeat each Other), Failure> {
        zipSignals(self, repeat each others)
    }
}

func zipSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    Signal { downstream in
        let state = ZipState(inputCount: packCount(repeat each inputs), downstream: downstream) { slots in
            let reader = PackReader(slots)
            return (repeat reader.next((each Input).self))
        }
        return subscribeEach(repeat each inputs, state: state,
                             value: { state.receive($1, from: $0) },
                             complete: { state.complete($0) })
    }
}

/// Per-subscription queues of `zip`. `@unchecked Sendable`: state guarded by the inherited `lock`.
final class ZipState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>, @unchecked Sendable {
    private var queues: [[any Sendable]]
    private var heads: [Int]

    override init(inputCount: Int, downstream: Subscriber<Output, Failure>,
                  makeOutput: @escaping @Sendable ([any Sendable]) -> Output) {
        queues = Array(repeating: [], count: inputCount)
        heads = Array(repeating: 0, count: inputCount)
        super.init(inputCount: inputCount, downstream: downstream, makeOutput: makeOutput)
    }

    private func isEmpty(_ input: Int) -> Bool {
        heads[input] == queues[input].count
    }

    func receive(_ value: any Sendable, from input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        queues[input].append(value)
        if (0..<inputCount).allSatisfy({ !isEmpty($0) }) {
            var slots: [any Sendable] = []
            slots.reserveCapacity(inputCount)
            for index in 0..<inputCount {
                slots.append(queues[index][heads[index]])
                heads[index] += 1
                if isEmpty(index) {
                    queues[index].removeAll(keepingCapacity: true)
                    heads[index] = 0
                }
            }
            enqueue(.value(makeOutput(slots)))
            if (0..<inputCount).contains(where: { completed[$0] && isEmpty($0) }) {
                enqueue(.complete)
            }
        }
        lock.unlock()
        flush()
    }

    func complete(_ input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        completed[input] = true
        if isEmpty(input) { enqueue(.complete) }
        lock.unlock()
        flush()
    }
}
