import RippleCore
import RippleNodes
import Testing

/// A node holds its value in raw bytes, or in a box when the value is larger than them: both must keep, replace,
/// empty and release values exactly as a stored optional would.
@Suite("Stored values: inline and boxed")
struct StoredValueTests {
    private final class Tracked: Sendable {}

    /// Five words: larger than the node's inline bytes, so it is boxed.
    private struct Large: Equatable, Sendable {
        var a = 0, b = 0, c = 0, d = 0
        var e = ""
    }

    @Test func largeValuesAreKeptReplacedAndEmptied() {
        let node = MutableNode(Large(a: 1, e: "one"))
        #expect(node.value == Large(a: 1, e: "one"))
        node.value = Large(d: 4, e: String(repeating: "x", count: 40))
        #expect(node.value == Large(d: 4, e: String(repeating: "x", count: 40)))
        node.clean()
        #expect(node.isEmpty)
        #expect(node.value == nil)
        node.value = Large(b: 2)
        #expect(node.value == Large(b: 2))
        let mapped = node.map { $0.b * 10 }
        #expect(mapped.value == 20)
    }

    @Test func aHeldNilIsAValue() {
        let node = MutableNode<Int?>(nil as Int?)
        #expect(!node.isEmpty)
        #expect(node.value == .some(nil))
        node.value = .some(3)
        #expect(node.value == .some(3))
        node.clean()
        #expect(node.isEmpty)
    }

    /// Watches one `Tracked` without keeping it.
    private final class Watch: @unchecked Sendable {
        weak var object: Tracked?

        /// A new `Tracked` that only the caller's expression holds.
        func make() -> Tracked {
            let tracked = Tracked()
            object = tracked
            return tracked
        }
    }

    @Test(arguments: [false, true])
    func replacedCleanedAndFreedValuesAreReleased(boxed: Bool) {
        let first = Watch(), second = Watch(), third = Watch()
        if boxed {
            let node = MutableNode((first.make(), 0, 0, 0, 0))
            node.value = (second.make(), 0, 0, 0, 0)
            #expect(first.object == nil)
            node.clean()
            #expect(second.object == nil)
            node.value = (third.make(), 0, 0, 0, 0)
            #expect(third.object != nil)
        } else {
            let node = MutableNode(first.make())
            node.value = second.make()
            #expect(first.object == nil)
            node.clean()
            #expect(second.object == nil)
            node.value = third.make()
            #expect(third.object != nil)
        }
        #expect(third.object == nil)
    }
}
