import RippleCore
import RippleNodes
import Testing

/// combine and zip keep their inputs' values boxed and rebuild the tuple from the boxes: inputs whose type is itself
/// an optional, an existential or a class must come back exactly as they went in.
@Suite("combine and zip rebuild tuples of any element type")
struct PackAssemblyTests {
    private protocol Shape: Sendable {
        var sides: Int { get }
    }

    private struct Square: Shape {
        var sides: Int { 4 }
    }

    private final class Label: Sendable {
        let text: String

        init(_ text: String) {
            self.text = text
        }
    }

    @Test func combineWithOptionalExistentialAndClassInputs() {
        let optional = MutableNode<Int?>(nil as Int?)
        let shape = MutableNode<any Shape>(Square())
        let anything = MutableNode<any Sendable>("text")
        let label = MutableNode(Label("a"))
        let combined = Node.combine(optional, shape, anything, label)
            .mapEach { number, shape, anything, label in
                "\(number.map(String.init) ?? "nil") \(shape.sides) \(anything) \(label.text)"
            }
        #expect(combined.value == "nil 4 text a")
        optional.value = .some(7)
        anything.value = 3.5
        label.value = Label("b")
        #expect(combined.value == "7 4 3.5 b")
    }

    @Test func zipWithOptionalAndExistentialInputs() {
        let optional = MutableNode<Int?>()
        let anything = MutableNode<any Sendable>()
        let zipped = Node.zip(optional, anything).mapEach { number, anything in
            "\(String(describing: number)) \(anything)"
        }
        optional.value = .some(nil)
        anything.value = 1
        #expect(zipped.value == "nil 1")
        optional.value = .some(2)
        anything.value = "x"
        #expect(zipped.value == "Optional(2) x")
    }

    /// Elements of every alignment, so each lands at its padded offset in the tuple.
    @Test func mixedAlignmentsLandInPlace() {
        let small = MutableNode<Int8>(-3)
        let wide = MutableNode<Int64>(1 << 40)
        let flag = MutableNode(true)
        let half = MutableNode<Int16>(-300)
        let text = MutableNode("héllo")
        let combined = Node.combine(small, wide, flag, half, text)
        let zipped = Node.zip(flag, small, text, wide)
        var check = combined.value
        #expect(check?.0 == -3 && check?.1 == 1 << 40 && check?.2 == true && check?.3 == -300 && check?.4 == "héllo")
        let pair = zipped.value
        #expect(pair?.0 == true && pair?.1 == -3 && pair?.2 == "héllo" && pair?.3 == 1 << 40)
        small.value = 127
        half.value = .min
        text.value = String(repeating: "long ", count: 10)
        check = combined.value
        #expect(check?.0 == 127 && check?.1 == 1 << 40 && check?.2 == true && check?.3 == .min
                && check?.4 == String(repeating: "long ", count: 10))
    }
}
