import RippleCore

/// Shared machinery of `zip` and `combineLatest`: per-input slots behind one lock, and an ordered hand-off of the
/// tuples they build.
///
/// Inputs may send from different threads. Tuples are built under `lock` in a definite order, then delivered
/// outside it; the thread that finds the emitter idle delivers everything queued meanwhile, so the downstream sees
/// tuples in the order they were built. `@unchecked Sendable`: all mutable state is guarded by `lock`.
class CombiningState<Output: Sendable, Failure: Error>: @unchecked Sendable {
    enum Emission {
        case value(Output)
        case complete
    }

    let lock = Lock()
    let downstream: Subscriber<Output, Failure>
    let inputCount: Int
    /// Builds the output tuple from one slot per input, in input order.
    let makeOutput: @Sendable ([any Sendable]) -> Output
    var completed: [Bool]
    var ended = false
    private var pending: [Emission] = []
    private var emitting = false

    init(inputCount: Int, downstream: Subscriber<Output, Failure>,
         makeOutput: @escaping @Sendable ([any Sendable]) -> Output) {
        self.inputCount = inputCount
        self.downstream = downstream
        self.makeOutput = makeOutput
        completed = Array(repeating: false, count: inputCount)
    }

    /// Called with `lock` held: queues `emission`. The caller must call ``flush()`` after unlocking.
    func enqueue(_ emission: Emission) {
        if case .complete = emission { ended = true }
        pending.append(emission)
    }

    /// Delivers queued emissions unless another thread already is.
    func flush() {
        lock.lock()
        if emitting {
            lock.unlock()
            return
        }
        emitting = true
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            lock.unlock()
            for emission in batch {
                switch emission {
                case .value(let output): downstream.send(output)
                case .complete: downstream.sendComplete()
                }
            }
            lock.lock()
        }
        emitting = false
        lock.unlock()
    }

    func fail(_ error: Failure) {
        lock.withLock { ended = true }
        downstream.sendError(error)
    }
}

/// Reads a parameter pack's values back out of type-erased slots, in order.
final class PackReader {
    private let items: [any Sendable]
    private var index = 0

    init(_ items: [any Sendable]) {
        self.items = items
    }

    func next<Element>(_: Element.Type) -> Element {
        defer { index += 1 }
        // The slots were filled from the same pack, in the same order, so the cast cannot fail.
        return items[index] as! Element
    }
}

/// Subscribes to every signal of a pack, telling `state` which input each event came from.
func subscribeEach<each Input: Sendable, Output: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>,
    state: CombiningState<Output, Failure>,
    value: @escaping @Sendable (Int, any Sendable) -> Void,
    complete: @escaping @Sendable (Int) -> Void
) -> Disposer {
    var disposers: [Disposer] = []
    var index = 0
    for input in repeat each inputs {
        let slot = index
        index += 1
        if state.downstream.isDisposed { break }
        disposers.append(input.subscribe(Subscriber(
            value: { value(slot, $0) },
            error: state.fail,
            complete: { complete(slot) })))
    }
    let all = disposers
    return Disposer {
        for disposer in all { disposer.dispose() }
    }
}

func packCount<each Input: Sendable, Failure: Error>(_ inputs: repeat Signal<each Input, Failure>) -> Int {
    var count = 0
    for _ in repeat each inputs { count += 1 }
    return count
}
