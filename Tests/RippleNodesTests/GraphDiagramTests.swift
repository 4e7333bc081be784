import RippleCore
import RippleNodes
import Testing

/// `graph(format: .text)`: each golden text below was checked by hand against the graph built above it (which row
/// each node is on, which transform lines leave each row).
@Suite("Graph: the text diagram by rank")
struct GraphDiagramTests {
    @Test func diamond() {
        let top = MutableNode(1).named("top")
        let left = top.map { $0 + 1 }.named("left")
        let right = top.map { $0 * 2 }.named("right")
        let sum = Node.combine(left, right).mapEach { $0 + $1 }.named("sum")
        let expected = """
            +-----+
            | top |
            +-----+
              top --map--> left
              top --map--> right
            +------+  +-------+
            | left |  | right |
            +------+  +-------+
              left --combine--> combine
              right --combine--> combine
            +---------+
            | combine |
            +---------+
              combine --mapEach--> sum
            +-----+
            | sum |
            +-----+

            """
        #expect(top.graph(format: .text) == expected)
        #expect(sum.value == 4)
    }

    @Test func grid3x3() {
        // g<row><column>; each node pushes right and down: ranks are the anti-diagonals.
        let grid = (0..<3).map { row in (0..<3).map { column in MutableNode(0).named("g\(row)\(column)") } }
        for row in 0..<3 {
            for column in 0..<3 {
                if column > 0 { grid[row][column].link(to: grid[row][column - 1]) }
                if row > 0 { grid[row][column].link(to: grid[row - 1][column]) }
            }
        }
        let expected = """
            +-----+
            | g00 |
            +-----+
              g00 --Transform<Int, Int>--> g01
              g00 --Transform<Int, Int>--> g10
            +-----+  +-----+
            | g01 |  | g10 |
            +-----+  +-----+
              g01 --Transform<Int, Int>--> g02
              g01 --Transform<Int, Int>--> g11
              g10 --Transform<Int, Int>--> g11
              g10 --Transform<Int, Int>--> g20
            +-----+  +-----+  +-----+
            | g02 |  | g11 |  | g20 |
            +-----+  +-----+  +-----+
              g02 --Transform<Int, Int>--> g12
              g11 --Transform<Int, Int>--> g12
              g11 --Transform<Int, Int>--> g21
              g20 --Transform<Int, Int>--> g21
            +-----+  +-----+
            | g12 |  | g21 |
            +-----+  +-----+
              g12 --Transform<Int, Int>--> g22
              g21 --Transform<Int, Int>--> g22
            +-----+
            | g22 |
            +-----+

            """
        #expect(grid[0][0].graph(format: .text) == expected)
        grid[0][0].value = 7
        #expect(grid[2][2].value == 7)
        for row in grid { for node in row { node.removeUpstreams() } }
    }

    @Test func ringClosesUpwards() {
        let a = MutableNode(0).named("a")
        let b = MutableNode(0).named("b")
        let c = MutableNode(0).named("c")
        b.link(to: a)
        c.link(to: b)
        a.link(to: c)
        let expected = """
            +---+
            | a |
            +---+
              a --Transform<Int, Int>--> b
            +---+
            | b |
            +---+
              b --Transform<Int, Int>--> c
            +---+
            | c |
            +---+
              c --Transform<Int, Int>--> a  (up to rank 0, closing a cycle)

            """
        #expect(a.graph(format: .text) == expected)
        a.removeUpstreams()
        b.removeUpstreams()
        c.removeUpstreams()
    }

    @Test func unnamedNodesAreLabelledByTypeAndNumber() {
        // Operators name the nodes they make ("map"); nodes made and linked by hand have no name.
        let source = MutableNode(1)
        let copy = MutableNode(0)
        copy.link(to: source)
        let text = copy.map { "\($0)" }
        let expected = """
            +---------------------+
            | MutableNode<Int> #0 |
            +---------------------+
              MutableNode<Int> #0 --Transform<Int, Int>--> MutableNode<Int> #1
            +---------------------+
            | MutableNode<Int> #1 |
            +---------------------+
              MutableNode<Int> #1 --map--> map
            +-----+
            | map |
            +-----+

            """
        #expect(source.graph(format: .text) == expected)
        #expect(source.graph().contains("n0 [label=\"MutableNode<Int> #0\"];"))
        #expect(!source.graph(format: .mermaid).contains("undefined"))
        #expect(text.value == "1")
        copy.removeUpstreams()
    }

    @Test func aSkippedRowIsNamedAndSameNamesGetNumbers() {
        let start = MutableNode(0).named("x")
        let middle = start.map { $0 }.named("x")
        let end = MutableNode(0).named("end")
        end.link(to: middle)
        end.link(to: start)
        let text = start.graph(format: .text)
        #expect(text.contains("  x #0 --Transform<Int, Int>--> end  (rank 2)"))
        #expect(text.contains("| x #1 |"))
        end.removeUpstreams()
    }

    @Test func aDeepChainDrawsWithoutDeepRecursion() {
        let head = MutableNode(0)
        var last: Node<Int> = head
        for _ in 0..<20_000 { last = last.map { $0 } }
        let text = head.graph(format: .text)
        #expect(text.hasSuffix("  map #19999 --map--> map #20000\n+------------+\n| map #20000 |\n+------------+\n"))
        #expect(text.split(separator: "\n").count == 20_001 * 4 - 1)
    }
}
