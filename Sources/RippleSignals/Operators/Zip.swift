extension Signal {
    /// Pairs values by position (Rx zip): the n-th tuple holds the n-th value of this signal and of each of `others`.
    ///
    /// Values wait in per-input queues until every input has one. The first error ends the result; it completes as
    /// soon as an input has completed and its queue is empty, since no further tuple can form. For GYSignal's own
    /// "zip" (latest values once every input has sent), use `combineLatest(_:)`.
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

extension Signal {
    /// The two-signal form of `zip(_:)`, spelled out so closures over its pair type-check without annotations
    /// (the compiler does not yet infer closure parameters through a parameter pack's tuple in a chain).
    public func zip<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        zipSignals(self, other)
    }
}

func zipSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    Signal { downstream in
        let state = ZipState(inputCount: packCount(repeat each inputs), downstream: downstream) { reader in
            (repeat reader.next((each Input).self))
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

    /// Builds the output tuple from `reader`, which holds one slot per input, in input order.
    private let makeOutput: @Sendable (PackReader) -> Output
    /// Reused for every tuple (only under `lock`), so building one allocates nothing in steady state.
    private let reader = PackReader()

    init(inputCount: Int, downstream: Subscriber<Output, Failure>,
         makeOutput: @escaping @Sendable (PackReader) -> Output) {
        queues = Array(repeating: [], count: inputCount)
        heads = Array(repeating: 0, count: inputCount)
        self.makeOutput = makeOutput
        super.init(inputCount: inputCount, downstream: downstream)
    }

    /// Called with `lock` held: builds the tuple from `fill`, which appends one slot per input to the array.
    private func output(_ fill: (inout [any Sendable]) -> Void) -> Output {
        reader.items.removeAll(keepingCapacity: true)
        reader.index = 0
        fill(&reader.items)
        let built = makeOutput(reader)
        reader.items.removeAll(keepingCapacity: true)
        return built
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
            let tuple = output { slots in
                for index in 0..<inputCount {
                    slots.append(queues[index][heads[index]])
                    heads[index] += 1
                    if isEmpty(index) {
                        queues[index].removeAll(keepingCapacity: true)
                        heads[index] = 0
                    }
                }
            }
            enqueue(.value(tuple))
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
