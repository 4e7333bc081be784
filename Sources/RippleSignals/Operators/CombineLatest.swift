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

extension Signal {
    /// The two-signal form of `combineLatest(_:)`, spelled out so closures over its pair type-check without annotations
    /// (the compiler does not yet infer closure parameters through a parameter pack's tuple in a chain), and so that
    /// it runs specialised in the caller's module (see `CombineLatest2`).
    @inlinable
    public func combineLatest<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        let first = asUpstream
        let other = other.asUpstream
        return Signal<(Value, Other), Failure>(depth: max(depthAbove, other.depthAbove)) { downstream in
            CombineLatest2(downstream: downstream).start(first, other)
        }
    }
}

func combineLatestSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    let (inputs, depth) = upstreams(repeat each inputs)
    return Signal(depth: depth) { downstream in
        let state = CombineLatestState(
            downstream: downstream,
            offsets: LatestValues<(repeat each Input)>.offsets(of: repeat (each Input).self),
            destroy: { values, present in
                var index = 0
                repeat values.destroy((each Input).self, at: &index, ifIn: present)
            })
        var inputList = InputList<Failure>()
        for input in repeat each inputs {
            inputList.attach(input, to: downstream, value: { index in { state.receive($0, from: index) } },
                             complete: { index in { state.complete(index) } })
        }
        return inputList.disposer
    }
}

/// Per-subscription bookkeeping of `combineLatest`. `@unchecked Sendable`: state guarded by the inherited `lock`.
final class CombineLatestState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>,
    @unchecked Sendable
{
    @exclusivity(unchecked) private var present: [Bool]
    @exclusivity(unchecked) private var missing: Int
    /// The latest value of each input, laid out as the output tuple.
    private let values: LatestValues<Output>
    private let destroy: (LatestValues<Output>, [Bool]) -> Void

    init(downstream: SignalSubscriber<Output, Failure>, offsets: [Int],
         destroy: @escaping (LatestValues<Output>, [Bool]) -> Void) {
        present = Array(repeating: false, count: offsets.count)
        missing = offsets.count
        values = LatestValues(offsets: offsets)
        self.destroy = destroy
        super.init(inputCount: offsets.count, downstream: downstream)
    }

    deinit {
        if missing == 0 {
            values.destroyAll()
        } else {
            destroy(values, present)
        }
    }

    func receive<Input>(_ value: Input, from input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        if present[input] {
            values.replace(input, with: value)
        } else {
            values.initialize(input, to: value)
            present[input] = true
            missing -= 1
        }
        guard missing == 0 else {
            lock.unlock()
            return
        }
        emit(values.tuple)
    }

    func complete(_ input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        if markCompleted(input) || !present[input] {
            enqueue(.complete)
        }
        lock.unlock()
        flush()
    }
}
