import RippleCore

/// Builds an n-ary operator's tuple from its inputs' type-erased values, into uninitialised memory: `element(i)`
/// points at input `i`'s value (read in place: copying a boxed value out and destroying the copy costs two value
/// witness calls per element).
typealias PackAssembler<Output> = @Sendable (_ element: (Int) -> UnsafePointer<any Sendable>,
                                             _ output: UnsafeMutablePointer<Output>) -> Void

/// The shared state of one `combine`: the latest value of every input.
///
/// `@unchecked Sendable`: `latest`, `isFilled`, `filled` and `stopped` are only touched under `lock`.
final class CombineGroup<Output: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`, which already makes every access exclusive: the dynamic exclusivity checks (a thread-local
    // look-up each, ~20 % of a combine update) are turned off.
    /// Every input's latest value; an empty tuple until `isFilled` (not an optional: one less box to go through).
    @exclusivity(unchecked) private var latest: [any Sendable]
    @exclusivity(unchecked) private var isFilled: [Bool]
    /// How many entries of `isFilled` are true.
    @exclusivity(unchecked) private var filled = 0
    @exclusivity(unchecked) private var stopped = false
    let assemble: PackAssembler<Output>

    init(count: Int, assemble: @escaping PackAssembler<Output>) {
        latest = Array(repeating: (), count: count)
        isFilled = Array(repeating: false, count: count)
        self.assemble = assemble
    }

    /// Records input `index`'s value; when no input is empty, writes the combined value to `output` (uninitialised)
    /// and returns true. An out-parameter rather than an `Output?`: unspecialised, an optional costs a metadata
    /// look-up per update.
    func update(_ value: any Sendable, at index: Int, into output: UnsafeMutablePointer<Output>) -> Bool {
        // The tuple is built under the lock straight from `latest` (our code, not the user's): no snapshot array
        // per update.
        lock.withLock {
            if stopped { return false }
            if !isFilled[index] {
                isFilled[index] = true
                filled += 1
            }
            latest[index] = value
            guard filled == latest.count else { return false }
            latest.withUnsafeBufferPointer { values in
                let first = values.baseAddress.unsafelyUnwrapped
                assemble({ first + $0 }, output)
            }
            return true
        }
    }

    /// Removing one input stops the combined node for good, as in EasyReact.
    func stop() {
        lock.withLock { stopped = true }
    }
}

/// One input's edge into a combined node.
final class CombineTransform<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    let group: CombineGroup<Output>
    let index: Int

    init(group: CombineGroup<Output>, index: Int) {
        self.group = group
        self.index = index
    }

    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
            let combined = buffer.baseAddress.unsafelyUnwrapped
            if group.update(value, at: index, into: combined) {
                emit(combined.move(), senders: senders, context: context)
            }
        }
    }

    override func fromDidChange() {
        if from == nil { group.stop() }
    }

    override func toDidChange() {
        if to == nil { group.stop() }
    }
}

/// Rebuilds a tuple of pack elements from type-erased values, in order, straight into `output`: `value(i)` is
/// element `i`. Element by element at the tuple's layout (each element at the next offset its alignment allows, as
/// in a struct: Swift's documented tuple layout), since forming `(repeat each Element)` unspecialised looks up the
/// tuple's metadata several times per call.
func assemblePack<each Element>(_ value: (Int) -> UnsafePointer<any Sendable>, into output: UnsafeMutableRawPointer,
                                 as types: repeat (each Element).Type) {
    // Counters a nested function captures get a dynamic exclusivity check per access; unchecked class fields do
    // not (the object never leaves this call).
    let position = PackPosition()
    func place<T>(_: T.Type) {
        let alignment = MemoryLayout<T>.alignment
        position.offset = (position.offset + alignment - 1) & ~(alignment - 1)
        (output + position.offset).initializeMemory(as: T.self, to: unbox(value(position.index).pointee, as: T.self))
        position.offset += MemoryLayout<T>.size
        position.index += 1
    }
    repeat place((each Element).self)
}

/// `assemblePack`'s running element index and byte offset.
private final class PackPosition {
    @exclusivity(unchecked) var index = 0
    @exclusivity(unchecked) var offset = 0
}

/// `boxed as! T`, without the runtime's general cast (~250 instructions) when the box holds exactly a `T`, as it does
/// unless `T` is itself an existential (boxing an existential re-boxes its content).
func unbox<T>(_ boxed: any Sendable, as _: T.Type) -> T {
    func open<Content>(_ content: Content) -> T {
        if Content.self == T.self { return unsafeBitCast(content, to: T.self) }
        return content as! T
    }
    return _openExistential(boxed, do: open)
}


/// Namespace for the n-ary operators: `Nodes.combine(a, b, c)`.
extension Node where Value == Void {
    /// A node holding the tuple of the latest values of `nodes`, updated whenever one changes; it stays empty
    /// while any input is empty (`EZRCombine`). Removing one input stops it for good.
    ///
    /// ```swift
    /// let sum = Node.combine(a, b).mapEach { a, b in a + b }
    /// ```
    public static func combine<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
        combineNodes(repeat each nodes)
    }
}

func combineNodes<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
    var count = 0
    for _ in repeat each nodes { count += 1 }
    let group = CombineGroup<(repeat each Input)>(count: count) { value, output in
        assemblePack(value, into: UnsafeMutableRawPointer(output), as: repeat (each Input).self)
    }
    let output = MutableNode<(repeat each Input)>(storage: nil, mutable: false)
    output.name = "combine"
    var index = 0
    for node in repeat each nodes {
        linkInput(node, into: output, CombineTransform(group: group, index: index), name: "combine")
        index += 1
    }
    return output
}

extension Node {
    /// `a.combine(b)`: the same as `Node.combine(a, b)`.
    public final func combine<Other: Sendable>(_ other: Node<Other>) -> Node<(Value, Other)> {
        combineNodes(self, other)
    }
}

/// Links one input of an n-ary operator; a generic function so the input's type is known inside a pack loop.
func linkInput<Input: Sendable, Output: Sendable>(_ node: Node<Input>, into output: Node<Output>,
                                                  _ transform: Transform<Input, Output>, name: String) {
    transform.name = name
    output.connect(node, through: transform)
}
