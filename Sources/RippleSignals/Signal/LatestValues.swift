/// The latest value of each input of a `combineLatest` subscription, stored in one buffer laid out as the output
/// tuple, so that the tuple is simply copied out of it.
///
/// Storing a value and copying the tuple out need only the value witnesses of the types involved. Building the
/// tuple from a parameter pack instead would fetch the tuple's metadata on every value, and a generic class per
/// slot its class metadata (each a locked hash-map lookup). The element offsets follow Swift's tuple layout
/// (elements in order, each at the next multiple of its alignment, as in a struct), computed once per subscription
/// and checked against the tuple's size. Not thread-safe: its owner guards it. `@unchecked Sendable`: see owner.
final class LatestValues<Tuple>: @unchecked Sendable {
    private let buffer: UnsafeMutableRawPointer
    private let offsets: [Int]

    init(offsets: [Int]) {
        buffer = .allocate(byteCount: MemoryLayout<Tuple>.size, alignment: MemoryLayout<Tuple>.alignment)
        // Bound to the tuple type, so its elements are bound too, each at its offset in the tuple: reading one with
        // `assumingMemoryBound(to: Element.self)` at that offset, or the whole with `assumingMemoryBound(to:
        // Tuple.self)`, is then defined (binding costs no instruction). Each element is initialised with
        // `initialize(to:)` before it is read, and the tuple is read only once all are.
        buffer.bindMemory(to: Tuple.self, capacity: 1)
        self.offsets = offsets
    }

    deinit {
        buffer.deallocate()
    }

    /// The offset of each element of a tuple of `types`, in order.
    static func offsets<each Element>(of types: repeat (each Element).Type) -> [Int] {
        var offsets: [Int] = []
        var end = 0
        repeat appendOffset(of: each types, to: &offsets, end: &end)
        precondition(end == MemoryLayout<Tuple>.size && offsets.count > 0,
                     "RippleSignals.combineLatest: unexpected tuple layout for \(Tuple.self)")
        return offsets
    }

    private static func appendOffset<Element>(of _: Element.Type, to offsets: inout [Int], end: inout Int) {
        let alignment = MemoryLayout<Element>.alignment
        let start = (end + alignment - 1) / alignment * alignment
        offsets.append(start)
        end = start + MemoryLayout<Element>.size
    }

    private func slot<Element>(_ index: Int, as _: Element.Type) -> UnsafeMutablePointer<Element> {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(offsets[index] + MemoryLayout<Element>.size <= MemoryLayout<Tuple>.size,
                     "Ripple internal check: LatestValues slot \(index) of \(Element.self) outside \(Tuple.self)")
        #endif
        return (buffer + offsets[index]).assumingMemoryBound(to: Element.self)
    }

    /// Stores the first value of input `index`.
    func initialize<Element>(_ index: Int, to value: Element) {
        slot(index, as: Element.self).initialize(to: value)
    }

    /// Replaces the value of input `index`.
    func replace<Element>(_ index: Int, with value: Element) {
        slot(index, as: Element.self).pointee = value
    }

    /// A copy of the tuple; every input must have a value.
    var tuple: Tuple {
        buffer.assumingMemoryBound(to: Tuple.self).pointee
    }

    /// Destroys every value (all inputs have one).
    func destroyAll() {
        buffer.assumingMemoryBound(to: Tuple.self).deinitialize(count: 1)
    }

    /// Destroys input `index`'s value if `present` says it has one, then moves `index` to the next input.
    func destroy<Element>(_: Element.Type, at index: inout Int, ifIn present: [Bool]) {
        if present[index] {
            slot(index, as: Element.self).deinitialize(count: 1)
        }
        index += 1
    }
}
