import RippleCore

// Invariants: as the pack form of `combineLatest` (once every input has sent, an array of the latest values in input
// order on every value; the first error ends the result; it completes when every input has completed, or as soon as
// one completes without having sent). An empty array of inputs gives a signal that completes at once, without a
// value. Ownership as for every multi-input operator: the inputs' error callbacks own the downstream.

extension Signal {
    /// combineLatest over any number of signals, known at run time: once each has sent a value, the array of their
    /// latest values, again on every value. An empty array of signals completes at once, without a value.
    public static func combineLatest(_ signals: [Signal]) -> Signal<[Value], Failure> {
        guard !signals.isEmpty else { return .empty }
        let (signals, depth) = upstreams(signals)
        return Signal<[Value], Failure>(depth: depth) { downstream in
            let state = CombineLatestArrayState<Value, Failure>(count: signals.count, downstream: downstream)
            var inputList = InputList<Failure>()
            for input in signals {
                inputList.attach(input, to: downstream, value: { index in { state.receive($0, from: index) } },
                                 complete: { index in { state.complete(index) } })
            }
            return inputList.disposer
        }
    }
}

/// Per-subscription latest values of the array `combineLatest`. `@unchecked Sendable`: guarded by the inherited
/// `lock`.
final class CombineLatestArrayState<Value: Sendable, Failure: Error>: CombiningState<[Value], Failure>,
    @unchecked Sendable
{
    private var latest: [Value?]
    private var missing: Int

    init(count: Int, downstream: SignalSubscriber<[Value], Failure>) {
        latest = Array(repeating: nil, count: count)
        missing = count
        super.init(inputCount: count, downstream: downstream)
    }

    func receive(_ value: Value, from input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        if latest[input] == nil { missing -= 1 }
        latest[input] = value
        guard missing == 0 else { return lock.unlock() }
        emit(latest.map { $0! })
    }

    func complete(_ input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        if markCompleted(input) || latest[input] == nil { enqueueCompletion() }
        lock.unlock()
        flush()
    }
}
