// Invariants: as the pack form of `zip` (values wait in per-input queues; the n-th array holds the n-th value of every
// input, in input order; the first error ends the result; it completes once an input has completed with nothing
// queued). An empty array of inputs gives a signal that completes at once, without a value. Ownership as for every
// multi-input operator: the inputs' error callbacks own the downstream (see `CombiningState`).

extension Signal {
    /// Zips any number of signals, known at run time (GYSignal's `zip:` over an array): the n-th array holds the
    /// n-th value of each signal. An empty array of signals completes at once, without a value.
    public static func zip(_ signals: [Signal]) -> Signal<[Value], Failure> {
        guard !signals.isEmpty else { return .empty }
        let count = signals.count
        let (signals, depth) = upstreams(signals)
        return Signal<[Value], Failure>(depth: depth) { downstream in
            let queues: [ZipQueueBase] = (0..<count).map { _ in ZipQueue(of: Value.self) }
            let state = ZipState<[Value], Failure>(queues: queues, downstream: downstream) { reader in
                (0..<count).map { _ in reader.next(Value.self) }
            }
            var inputList = InputList<Failure>()
            for input in signals {
                inputList.attach(input, to: downstream, value: { index in { state.receive($0, from: index) } },
                                 complete: { index in { state.complete(index) } })
            }
            return inputList.disposer
        }
    }
}
