extension Signal {
    /// GYSignal's "zip": once this signal and each of `others` have sent a value, emits a tuple of the latest values,
    /// then another on every value from any input.
    ///
    /// Each tuple is an immutable snapshot. The first error ends the result. It completes when every input has
    /// completed — or as soon as an input completes without ever sending a value, since no tuple can form then.
    public func combineLatest<each Other: Sendable>(
        _ others: repeat Signal<each Other, Failure>
    ) -> Signal<(Value, repeat each Other), Failure> {
        combineLatestSignals(self, repeat each others)
    }
}

func combineLatestSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    Signal { downstream in
        let state = CombineLatestState(inputCount: packCount(repeat each inputs), downstream: downstream) { slots in
            let reader = PackReader(slots)
            return (repeat reader.next((each Input).self))
        }
        return subscribeEach(repeat each inputs, state: state,
                             value: { state.receive($1, from: $0) },
                             complete: { state.complete($0) })
    }
}

/// Per-subscription latest values of `combineLatest`. `@unchecked Sendable`: state guarded by the inherited `lock`.
final class CombineLatestState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>,
    @unchecked Sendable
{
    private var latest: [(any Sendable)?]
    private var missing: Int

    override init(inputCount: Int, downstream: Subscriber<Output, Failure>,
                  makeOutput: @escaping @Sendable ([any Sendable]) -> Output) {
        latest = Array(repeating: nil, count: inputCount)
        missing = inputCount
        super.init(inputCount: inputCount, downstream: downstream, makeOutput: makeOutput)
    }

    func receive(_ value: any Sendable, from input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        if latest[input] == nil { missing -= 1 }
        latest[input] = value
        if missing == 0 {
            enqueue(.value(makeOutput(latest.map { $0! })))
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
        if latest[input] == nil || !completed.contains(false) {
            enqueue(.complete)
        }
        lock.unlock()
        flush()
    }
}
