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
    /// (the compiler does not yet infer closure parameters through a parameter pack's tuple in a chain), and so that
    /// it runs specialised in the caller's module (see `Zip2`).
    @inlinable
    public func zip<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        let first = asUpstream
        let other = other.asUpstream
        return Signal<(Value, Other), Failure>(depth: max(depthAbove, other.depthAbove)) { downstream in
            Zip2(downstream: downstream).start(first, other)
        }
    }
}

func zipSignals<each Input: Sendable, Failure: Error>(
    _ inputs: repeat Signal<each Input, Failure>
) -> Signal<(repeat each Input), Failure> {
    let (inputs, depth) = upstreams(repeat each inputs)
    return Signal(depth: depth) { downstream in
        var queues: [ZipQueueBase] = []
        for type in repeat (each Input).self {
            queues.append(ZipQueue(of: type))
        }
        let state = ZipState<(repeat each Input), Failure>(queues: queues, downstream: downstream) { reader in
            (repeat reader.next((each Input).self))
        }
        var inputList = InputList<Failure>()
        for input in repeat each inputs {
            inputList.attach(input, to: downstream, value: { index in { state.receive($0, from: index) } },
                             complete: { index in { state.complete(index) } })
        }
        return inputList.disposer
    }
}

/// Per-subscription queues of `zip`: one typed queue per input, so values are stored as themselves (no
/// `any Sendable` box, no dynamic cast to read them back). `@unchecked Sendable`: state guarded by the inherited
/// `lock`.
final class ZipState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>, @unchecked Sendable {
    /// Input `i`'s queue is `queues[i]`, a `ZipQueue` of that input's value type.
    private let queues: [ZipQueueBase]
    /// Builds the output tuple by taking the next value of each queue, in input order.
    private let makeOutput: @Sendable (ZipReader) -> Output
    /// Reused for every tuple (only under `lock`), so building one allocates nothing.
    private let reader: ZipReader
    /// How many queues are empty: a tuple is due when none is. Asking every queue on every value made `n` inputs
    /// cost n² (`zip` of 8,000 signals: 0.16 s).
    private var emptyQueues: Int

    init(queues: [ZipQueueBase], downstream: SignalSubscriber<Output, Failure>,
         makeOutput: @escaping @Sendable (ZipReader) -> Output) {
        self.queues = queues
        self.makeOutput = makeOutput
        reader = ZipReader(queues: queues)
        emptyQueues = queues.count
        super.init(inputCount: queues.count, downstream: downstream)
    }

    func receive<Input>(_ value: Input, from input: Int) {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        // Input `input`'s callback was made for its own value type, so the queue's dynamic type is exactly
        // `ZipQueue<Input>` (a final class): the downcast is to the object's own class.
        checkQueue(queues[input], holds: Input.self)
        let queue = unsafeDowncast(queues[input], to: ZipQueue<Input>.self)
        if queue.count == 0 { emptyQueues -= 1 }
        queue.append(value)
        if emptyQueues == 0 {
            reader.index = 0
            enqueue(.value(makeOutput(reader)))
            // The tuple took one value of every queue: count the ones it emptied (as long as the tuple itself).
            var completes = false
            for index in 0..<inputCount where queues[index].count == 0 {
                emptyQueues += 1
                if completed[index] { completes = true }
            }
            if completes { enqueue(.complete) }
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
        _ = markCompleted(input)
        if queues[input].count == 0 { enqueue(.complete) }
        lock.unlock()
        flush()
    }
}

/// The values one input of a `zip` sent that are not in a tuple yet. Used only under its `ZipState`'s lock.
@usableFromInline
class ZipQueueBase {
    /// How many values wait.
    @usableFromInline final var count = 0

    @usableFromInline
    init() {}
}

/// A ring buffer rather than an array: it runs unspecialised (its element type comes from a parameter pack), where
/// every generic `Array` operation fetches metadata; moving values in and out of raw storage only calls the element
/// type's value witnesses.
@usableFromInline @_fixed_layout
final class ZipQueue<Element>: ZipQueueBase {
    @usableFromInline var storage: UnsafeMutablePointer<Element>
    @usableFromInline var capacity = 4
    /// Index of the oldest value.
    @usableFromInline var head = 0

    @inlinable
    init(of _: Element.Type) {
        storage = .allocate(capacity: capacity)
    }

    deinit {
        for offset in 0..<count {
            (storage + (head + offset) % capacity).deinitialize(count: 1)
        }
        storage.deallocate()
    }

    @inlinable
    func append(_ value: Element) {
        if count == capacity { grow() }
        (storage + (head + count) % capacity).initialize(to: value)
        count += 1
    }

    /// Takes the oldest value.
    @inlinable
    func removeFirst() -> Element {
        let value = (storage + head).move()
        head = (head + 1) % capacity
        count -= 1
        return value
    }

    /// Doubles the capacity, moving the values to the start of the new storage in order.
    @usableFromInline
    func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        for offset in 0..<count {
            (larger + offset).moveInitialize(from: storage + (head + offset) % capacity, count: 1)
        }
        storage.deallocate()
        storage = larger
        capacity *= 2
        head = 0
    }
}

/// Takes the next value of each queue in input order, to build one tuple from a parameter pack.
final class ZipReader {
    private let queues: [ZipQueueBase]
    var index = 0

    init(queues: [ZipQueueBase]) {
        self.queues = queues
    }

    func next<Element>(_: Element.Type) -> Element {
        defer { index += 1 }
        // The queues were made from the same pack, in the same order: queue `index` is exactly a
        // `ZipQueue<Element>` (a final class), so the downcast is to the object's own class.
        checkQueue(queues[index], holds: Element.self)
        return unsafeDowncast(queues[index], to: ZipQueue<Element>.self).removeFirst()
    }
}

/// Checks (`RIPPLE_INTERNAL_CHECKS`) that `queue` is exactly a `ZipQueue<Element>` before `unsafeDowncast` treats it
/// as one.
@inline(__always)
func checkQueue<Element>(_ queue: ZipQueueBase, holds _: Element.Type) {
    #if RIPPLE_INTERNAL_CHECKS
    precondition(type(of: queue) == ZipQueue<Element>.self,
                 "Ripple internal check: zip read a \(type(of: queue)) as a ZipQueue<\(Element.self)>")
    #endif
}
