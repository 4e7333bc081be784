import RippleCore

/// The shared state of one `combine`: the latest value of every input, kept where the output tuple keeps it.
///
/// Each input writes its own element in place, so an update copies one typed value in and, once every input has a
/// value, the whole tuple out: no boxing, no per-element dispatch. The elements are destroyed by the inputs that
/// wrote them (only they know their types), in their deinit.
///
/// `@unchecked Sendable`: the bytes behind `latest` and `isFilled`, `filled` and `stopped` are only touched under
/// `lock`; `count` is immutable.
@usableFromInline @_fixed_layout
final class CombineState<Output: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = RawLock()
    /// Room for one `Output`; element `i` is initialised exactly while `isFilled[i]`.
    @usableFromInline let latest: UnsafeMutableRawPointer
    @usableFromInline let isFilled: UnsafeMutablePointer<Bool>
    @usableFromInline let count: Int
    // Guarded by `lock`, which already makes every access exclusive: the dynamic exclusivity checks are turned off.
    /// How many entries of `isFilled` are true.
    @usableFromInline @exclusivity(unchecked) var filled = 0
    @usableFromInline @exclusivity(unchecked) var stopped = false

    @inlinable
    init(count: Int) {
        self.count = count
        // One allocation: the tuple, then the flags.
        latest = .allocate(byteCount: MemoryLayout<Output>.size + count, alignment: MemoryLayout<Output>.alignment)
        isFilled = (latest + MemoryLayout<Output>.size).bindMemory(to: Bool.self, capacity: count)
        isFilled.initialize(repeating: false, count: count)
    }

    deinit {
        latest.deallocate()
    }

    /// Records input `index`'s value (its element lives at byte `offset`); when no input is empty, copies the
    /// combined tuple to `output` (uninitialised) and returns true. An out-parameter rather than an `Output?`:
    /// unspecialised (the pack-generic `combine`), an optional costs a metadata look-up per update.
    @inlinable @inline(__always)
    func update<Input>(_ value: Input, index: Int, offset: Int, into output: UnsafeMutablePointer<Output>) -> Bool {
        var replaced = value
        lock.lock()
        if stopped {
            lock.unlock()
            return false
        }
        let element = (latest + offset).bindMemory(to: Input.self, capacity: 1)
        if isFilled[index] {
            // The old value leaves through `replaced` and is destroyed after unlocking: it may be a node whose
            // deinit takes locks of its own.
            swap(&element.pointee, &replaced)
        } else {
            element.initialize(to: value)
            isFilled[index] = true
            filled += 1
        }
        let complete = filled == count
        if complete { output.initialize(to: latest.bindMemory(to: Output.self, capacity: 1).pointee) }
        lock.unlock()
        extendLifetime(replaced)
        return complete
    }

    /// Input `index` is going away: destroys its element (after unlocking, as in `update`).
    func remove<Input>(_: Input.Type, index: Int, offset: Int) {
        withUnsafeTemporaryAllocation(of: Input.self, capacity: 1) { buffer in
            let removed = buffer.baseAddress.unsafelyUnwrapped
            lock.lock()
            let had = isFilled[index]
            if had {
                removed.moveInitialize(from: (latest + offset).bindMemory(to: Input.self, capacity: 1), count: 1)
                isFilled[index] = false
                filled -= 1
            }
            lock.unlock()
            if had { removed.deinitialize(count: 1) }
        }
    }

    /// Removing one input stops the combined node for good, as in EasyReact.
    func stop() {
        lock.withLock { stopped = true }
    }
}

/// One input's edge into a combined node: element `index` of the output tuple, at byte `offset`.
@usableFromInline @_fixed_layout
final class CombineInput<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    @usableFromInline let state: CombineState<Output>
    @usableFromInline let index: Int
    @usableFromInline let offset: Int

    // Inlinable, so the push thunk is built where `Input` and `Output` are concrete: the whole update then runs
    // specialised in the client (for the pack-generic `combine`, it runs generic).
    @inlinable
    init(state: CombineState<Output>, index: Int, offset: Int) {
        self.state = state
        self.index = index
        self.offset = offset
        super.init()
        // Nothing captured, so the thunk needs no context allocation; the fields are read from the borrowed edge.
        push = { edge, target, value, senders, context in
            edge._withUnsafeGuaranteedRef { object in
                let input = unsafeDowncast(object, to: CombineInput<Input, Output>.self)
                withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
                    let combined = buffer.baseAddress.unsafelyUnwrapped
                    if input.state.update(value, index: input.index, offset: input.offset, into: combined) {
                        emitValue(combined.move(), into: target, senders: senders, context: context)
                    }
                }
            }
        }
    }

    deinit {
        state.remove(Input.self, index: index, offset: offset)
    }

    /// Linking pushes the input's current value through here (the class's vtable rather than the thunk).
    @usableFromInline
    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        nextThroughPush(value, senders: senders, context: context)
    }

    override func fromDidChange() {
        if from == nil { state.stop() }
    }

    override func toDidChange() {
        if to == nil { state.stop() }
    }
}

/// Builds one `combine`: its state, its output node, and one linked input per element, in order.
@usableFromInline @frozen
struct CombineBuilder<Output: Sendable> {
    @usableFromInline let state: CombineState<Output>
    @usableFromInline let output: MutableNode<Output>
    @usableFromInline var layout = TupleLayout()

    @inlinable
    init(count: Int) {
        state = CombineState(count: count)
        output = MutableNode<Output>(storage: nil, mutable: false)
        output.name = "combine"
    }

    /// Links the next input. Inlinable, so the transform (and its thunk) is created specialised.
    @inlinable
    mutating func link<Input: Sendable>(_ node: Node<Input>) {
        let index = layout.count
        let offset = layout.append(Input.self)
        linkInput(node, into: output, CombineInput(state: state, index: index, offset: offset), name: "combine",
                  copyingCurrent: { $0.copyCurrentValue(to: $1) })
    }
}

/// Where each element of a tuple lies: at the next offset its alignment allows, as in a struct (Swift's documented
/// tuple layout; the mixed-alignment tests of `PackAssemblyTests` and `CombineSpecialisationTests` rely on it).
@usableFromInline @frozen
struct TupleLayout {
    @usableFromInline var count = 0
    @usableFromInline var size = 0

    @inlinable
    init() {}

    /// Appends an element of type `T` and returns its byte offset.
    @inlinable
    mutating func append<T>(_: T.Type) -> Int {
        let alignment = MemoryLayout<T>.alignment
        let offset = (size + alignment - 1) & ~(alignment - 1)
        size = offset + MemoryLayout<T>.size
        count += 1
        return offset
    }
}

/// Namespace for the n-ary operators: `Nodes.combine(a, b, c)`.
extension Node where Value == Void {
    /// A node holding the tuple of the latest values of `nodes`, updated whenever one changes; it stays empty
    /// while any input is empty (`EZRCombine`). Removing one input stops it for good.
    ///
    /// ```swift
    /// let sum = Node.combine(a, b).mapEach { a, b in a + b }
    /// ```
    ///
    /// Two to ten inputs take the specialised overloads in `CombineArities.swift`; this one runs generic.
    public static func combine<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
        var count = 0
        for _ in repeat each nodes { count += 1 }
        var builder = CombineBuilder<(repeat each Input)>(count: count)
        for node in repeat each nodes { builder.link(node) }
        return builder.output
    }
}

extension Node {
    /// `a.combine(b)`: the same as `Node.combine(a, b)`.
    @inlinable
    public final func combine<Other: Sendable>(_ other: Node<Other>) -> Node<(Value, Other)> {
        Node<Void>.combine(self, other)
    }
}

/// Links one input of an n-ary operator. Not inlined: linking runs once per input; only `copy`, made by the
/// inlinable caller, runs specialised (see ``Node/connect(_:through:copyingCurrent:)``).
@usableFromInline
func linkInput<Input: Sendable, Output: Sendable>(_ node: Node<Input>, into output: Node<Output>,
                                                  _ transform: Transform<Input, Output>, name: String,
                                                  copyingCurrent copy: CurrentValueCopy<Input>?) {
    transform.name = name
    output.connect(node, through: transform, copyingCurrent: copy)
}
