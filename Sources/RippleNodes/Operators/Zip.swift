import DequeModule
import RippleCore

/// The shared state of one `zip`: a FIFO of not-yet-paired values per input.
///
/// `@unchecked Sendable`: `queues` and `stopped` are only touched under `lock`.
final class ZipGroup<Output: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`, which already makes every access exclusive: the dynamic exclusivity checks are turned off.
    @exclusivity(unchecked) private var queues: [Deque<any Sendable>]
    @exclusivity(unchecked) private var stopped = false
    let assemble: PackAssembler<Output>

    init(count: Int, assemble: @escaping PackAssembler<Output>) {
        queues = Array(repeating: Deque(), count: count)
        self.assemble = assemble
    }

    /// Queues input `index`'s value; once every input has a value waiting, writes the next tuple to `output`
    /// (uninitialised) and returns true. An out-parameter rather than an `Output?`, as in `CombineGroup`.
    func update(_ value: any Sendable, at index: Int, into output: UnsafeMutablePointer<Output>) -> Bool {
        // The tuple is built under the lock, taking each queue's first value (our code, not the user's): no
        // snapshot array per update.
        lock.withLock {
            if stopped { return false }
            queues[index].append(value)
            guard queues.allSatisfy({ !$0.isEmpty }) else { return false }
            // The first value of every queue, moved to the stack so the assembler reads them in place.
            let count = queues.count
            withUnsafeTemporaryAllocation(of: (any Sendable).self, capacity: count) { firsts in
                let first = firsts.baseAddress.unsafelyUnwrapped
                for index in 0..<count { (first + index).initialize(to: queues[index].removeFirst()) }
                assemble({ UnsafePointer(first + $0) }, output)
                first.deinitialize(count: count)
            }
            return true
        }
    }

    func stop() {
        lock.withLock {
            stopped = true
            queues = queues.map { _ in Deque() }
        }
    }
}

/// One input's edge into a zipped node.
final class ZipTransform<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    let group: ZipGroup<Output>
    let index: Int

    init(group: ZipGroup<Output>, index: Int) {
        self.group = group
        self.index = index
    }

    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
            let zipped = buffer.baseAddress.unsafelyUnwrapped
            if group.update(value, at: index, into: zipped) {
                emit(zipped.move(), senders: senders, context: context)
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

extension Node where Value == Void {
    /// A node pairing the k-th values of every input: the first values form the first tuple, the second values the
    /// second, and so on (`EZRZip`). Removing one input stops it for good.
    public static func zip<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
        zipNodes(repeat each nodes)
    }
}

func zipNodes<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
    var count = 0
    for _ in repeat each nodes { count += 1 }
    let group = ZipGroup<(repeat each Input)>(count: count) { value, output in
        assemblePack(value, into: UnsafeMutableRawPointer(output), as: repeat (each Input).self)
    }
    let output = MutableNode<(repeat each Input)>(storage: nil, mutable: false)
    output.name = "zip"
    var index = 0
    for node in repeat each nodes {
        linkInput(node, into: output, ZipTransform(group: group, index: index), name: "zip")
        index += 1
    }
    return output
}

extension Node {
    /// `a.zip(b)`: the same as `Node.zip(a, b)`.
    public final func zip<Other: Sendable>(_ other: Node<Other>) -> Node<(Value, Other)> {
        zipNodes(self, other)
    }
}

/// Builds an n-ary operator's tuple from its inputs' type-erased values, into uninitialised memory: `element(i)`
/// points at input `i`'s value (read in place: copying a boxed value out and destroying the copy costs two value
/// witness calls per element).
typealias PackAssembler<Output> = @Sendable (_ element: (Int) -> UnsafePointer<any Sendable>,
                                             _ output: UnsafeMutablePointer<Output>) -> Void

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
