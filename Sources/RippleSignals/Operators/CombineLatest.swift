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
    /// (the compiler does not yet infer closure parameters through a parameter pack's tuple in a chain).
    public func combineLatest<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        combineLatestSignals(self, other)
    }
}

func combineLatestSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    Signal { downstream in
        // One typed slot per input: values are stored and read back as themselves, with no `any Sendable` boxing
        // or cast per value.
        let latest = LatestValues(repeat LatestSlot<each Input>())
        let state = CombineLatestState(inputCount: packCount(repeat each inputs), downstream: downstream) {
            latest.output()
        }
        var disposers: [Disposer] = []
        latest.subscribe(repeat each inputs, state: state, disposers: &disposers)
        let all = disposers
        return Disposer {
            for disposer in all { disposer.dispose() }
        }
    }
}

/// Subscribes input number `disposers.count`, storing its values into `slot` (none once the downstream is disposed).
private func subscribeLatest<Input: Sendable, Output: Sendable, Failure: Error>(
    _ input: Signal<Input, Failure>,
    into slot: LatestSlot<Input>,
    state: CombineLatestState<Output, Failure>,
    disposers: inout [Disposer]
) {
    let index = disposers.count
    if state.downstream.isDisposed { return }
    disposers.append(input.subscribe(Subscriber(
        value: { value in state.receive(from: index) { slot.value = value } },
        error: state.fail,
        complete: { state.complete(index) })))
}

/// The typed slots of one `combineLatest` subscription, which owns their memory; the `CombineLatestState` keeps it
/// alive (through `makeOutput`) as long as any input's subscriber can write a slot. (A class rather than a tuple captured by a closure: Swift
/// 6.3 crashes in SILGen on a closure that captures a tuple of a pack expansion.) `@unchecked Sendable`: the slots
/// are only touched under the `CombineLatestState`'s lock.
final class LatestValues<each Input: Sendable>: @unchecked Sendable {
    let slots: (repeat LatestSlot<each Input>)

    init(_ slots: repeat LatestSlot<each Input>) {
        self.slots = (repeat each slots)
    }

    deinit {
        let slots = self.slots
        repeat (each slots).free()
    }

    /// The tuple of the latest values; every slot must be filled.
    func output() -> (repeat each Input) {
        let slots = self.slots
        return (repeat (each slots).filled)
    }

    func subscribe<Output: Sendable, Failure: Error>(
        _ inputs: repeat Signal<each Input, Failure>,
        state: CombineLatestState<Output, Failure>,
        disposers: inout [Disposer]
    ) {
        let slots = self.slots
        repeat subscribeLatest(each inputs, into: each slots, state: state, disposers: &disposers)
    }
}

/// One input's latest value, in memory owned by its ``LatestValues``. A struct over a pointer rather than a generic
/// class: reaching a generic class's stored property fetches the class's metadata (a locked hash-map lookup) on every
/// access, while a pointer needs only the value's own type. `@unchecked Sendable`: the value is only touched under the
/// `CombineLatestState`'s lock.
struct LatestSlot<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value?>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: nil)
    }

    var value: Value? {
        get { storage.pointee }
        nonmutating set { storage.pointee = newValue }
    }

    /// The value, once the input has sent one.
    var filled: Value {
        storage.pointee!
    }

    /// Called once, by the owning ``LatestValues``.
    func free() {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}

/// Per-subscription bookkeeping of `combineLatest`. `@unchecked Sendable`: state guarded by the inherited `lock`.
final class CombineLatestState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>,
    @unchecked Sendable
{
    @exclusivity(unchecked) private var present: [Bool]
    @exclusivity(unchecked) private var missing: Int
    /// Builds the output tuple from the inputs' slots; called only under `lock`.
    private let makeOutput: @Sendable () -> Output

    init(inputCount: Int, downstream: Subscriber<Output, Failure>, makeOutput: @escaping @Sendable () -> Output) {
        present = Array(repeating: false, count: inputCount)
        missing = inputCount
        self.makeOutput = makeOutput
        super.init(inputCount: inputCount, downstream: downstream)
    }

    /// `store` writes the new value into the input's slot; it runs under `lock`.
    func receive(from input: Int, _ store: () -> Void) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        store()
        if !present[input] {
            present[input] = true
            missing -= 1
        }
        guard missing == 0 else {
            lock.unlock()
            return
        }
        emit(makeOutput())
    }

    func complete(_ input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        completed[input] = true
        if !present[input] || !completed.contains(false) {
            enqueue(.complete)
        }
        lock.unlock()
        flush()
    }
}
