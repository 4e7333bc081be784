import DequeModule
import RippleCore

/// The shared state of one `zip`: each input's FIFO of not-yet-paired values (a typed ``ZipQueue`` per input), and
/// how many of them hold a value.
///
/// `@unchecked Sendable`: `nonEmpty`, `stopped` and every queue's values are only touched under `lock`; `queues`
/// is filled while building, before any input is linked, and only read afterwards.
@usableFromInline @_fixed_layout
final class ZipState<Output: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = RawLock()
    @usableFromInline let count: Int
    // Guarded by `lock`, which already makes every access exclusive: the dynamic exclusivity checks are turned off.
    @usableFromInline @exclusivity(unchecked) var queues: [ZipQueue] = []
    /// How many queues hold at least one value.
    @usableFromInline @exclusivity(unchecked) var nonEmpty = 0
    @usableFromInline @exclusivity(unchecked) var stopped = false

    @inlinable
    init(count: Int) {
        self.count = count
        queues.reserveCapacity(count)
    }

    /// Queues `value` on `queue`; once every queue holds a value, moves the first of each into `output`
    /// (uninitialised) and returns true. An out-parameter rather than an `Output?`: unspecialised (the pack-generic
    /// `zip`), an optional costs a metadata look-up per update.
    @inlinable @inline(__always)
    func update<Input>(_ value: Input, on queue: TypedZipQueue<Input>, into output: UnsafeMutablePointer<Output>)
        -> Bool
    {
        lock.lock()
        if stopped {
            lock.unlock()
            return false
        }
        if queue.values.isEmpty { nonEmpty += 1 }
        queue.values.append(value)
        let complete = nonEmpty == count
        if complete {
            let tuple = UnsafeMutableRawPointer(output)
            queues.withUnsafeBufferPointer { queues in
                for queue in queues where queue.takeFirst(queue, tuple) { nonEmpty -= 1 }
            }
        }
        lock.unlock()
        return complete
    }

    /// Removing one input stops the zipped node for good, as in EasyReact; the values still queued are dropped.
    func stop() {
        lock.withLock {
            stopped = true
            for queue in queues { queue.removeAll(queue) }
            nonEmpty = 0
        }
    }
}

/// One input's queue, seen without its value type: the state moves values out through thunks built where the type
/// is concrete (`TypedZipQueue.init`), so pairing runs specialised with no per-element generic calls.
@usableFromInline
class ZipQueue: @unchecked Sendable {
    /// Where this input's element lies in the output tuple.
    @usableFromInline let offset: Int
    /// Moves the first value to `tuple + offset` and returns whether the queue is now empty. Call under the lock.
    @usableFromInline let takeFirst: (ZipQueue, UnsafeMutableRawPointer) -> Bool
    /// Drops every queued value. Call under the lock.
    let removeAll: (ZipQueue) -> Void

    @usableFromInline
    init(offset: Int, takeFirst: @escaping (ZipQueue, UnsafeMutableRawPointer) -> Bool,
         removeAll: @escaping (ZipQueue) -> Void) {
        self.offset = offset
        self.takeFirst = takeFirst
        self.removeAll = removeAll
    }
}

/// One input's not-yet-paired values. `@unchecked Sendable`: `values` is only touched under its state's lock.
@usableFromInline @_fixed_layout
final class TypedZipQueue<Input>: ZipQueue, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var values = Deque<Input>()

    @inlinable
    init(offset: Int) {
        super.init(offset: offset, takeFirst: { queue, tuple in
            let typed = unsafeDowncast(queue, to: TypedZipQueue<Input>.self)
            (tuple + typed.offset).initializeMemory(as: Input.self, to: typed.values.removeFirst())
            return typed.values.isEmpty
        }, removeAll: { queue in
            unsafeDowncast(queue, to: TypedZipQueue<Input>.self).values = Deque()
        })
    }
}

/// One input's edge into a zipped node.
@usableFromInline @_fixed_layout
final class ZipInput<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    @usableFromInline let state: ZipState<Output>
    @usableFromInline let queue: TypedZipQueue<Input>

    // Inlinable, so the push thunk is built where `Input` and `Output` are concrete: the whole update then runs
    // specialised in the client (for the pack-generic `zip`, it runs generic).
    @inlinable
    init(state: ZipState<Output>, queue: TypedZipQueue<Input>) {
        self.state = state
        self.queue = queue
        super.init()
        // Nothing captured, so the thunk needs no context allocation; the fields are read from the borrowed edge.
        push = { edge, target, value, senders, context in
            edge._withUnsafeGuaranteedRef { object in
                let input = unsafeDowncast(object, to: ZipInput<Input, Output>.self)
                withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
                    let zipped = buffer.baseAddress.unsafelyUnwrapped
                    if input.state.update(value, on: input.queue, into: zipped) {
                        emitValue(zipped.move(), into: target, senders: senders, context: context)
                    }
                }
            }
        }
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

/// Builds one `zip`: its state, its output node, and one linked input per element, in order.
@usableFromInline @frozen
struct ZipBuilder<Output: Sendable> {
    @usableFromInline let state: ZipState<Output>
    @usableFromInline let output: MutableNode<Output>
    @usableFromInline var layout = TupleLayout()

    @inlinable
    init(count: Int) {
        state = ZipState(count: count)
        output = MutableNode<Output>(storage: nil, mutable: false)
        output.name = "zip"
    }

    /// Links the next input. Inlinable, so the queue and transform (and their thunks) are created specialised.
    @inlinable
    mutating func link<Input: Sendable>(_ node: Node<Input>) {
        let queue = TypedZipQueue<Input>(offset: layout.append(Input.self))
        state.queues.append(queue)
        linkInput(node, into: output, ZipInput(state: state, queue: queue), name: "zip",
                  copyingCurrent: { $0.copyCurrentValue(to: $1) })
    }
}

extension Node where Value == Void {
    /// A node pairing the k-th values of every input: the first values form the first tuple, the second values the
    /// second, and so on (`EZRZip`). Removing one input stops it for good.
    ///
    /// Two to five inputs take the specialised overloads in `ZipArities.swift`; this one runs generic.
    public static func zip<each Input: Sendable>(_ nodes: repeat Node<each Input>) -> Node<(repeat each Input)> {
        var count = 0
        for _ in repeat each nodes { count += 1 }
        var builder = ZipBuilder<(repeat each Input)>(count: count)
        for node in repeat each nodes { builder.link(node) }
        return builder.output
    }
}

extension Node {
    /// `a.zip(b)`: the same as `Node.zip(a, b)`.
    @inlinable
    public final func zip<Other: Sendable>(_ other: Node<Other>) -> Node<(Value, Other)> {
        Node<Void>.zip(self, other)
    }
}
