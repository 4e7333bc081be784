import RippleCore
import RippleNodes
import RippleTesting
import Testing

@Suite("Graph: traversal, DOT and Mermaid")
struct GraphTests {
    @Test func dotIsDeterministic() {
        let scheduler = TestScheduler()
        let bag = CancelBag()
        let input = MutableNode<String>().named("input")
        let search = input.throttle(.seconds(1), on: scheduler).named("search")
        let results = search.map { $0.count }.named("results")
        results.listened(by: bag).withBlock { _ in }
        let expected = """
            digraph G {
              node [shape=box];
              n0 [label="input"];
              n1 [label="search"];
              n2 [label="results", style=bold];
              n0 -> n1 [label="throttle"];
              n1 -> n2 [label="map"];
            }

            """
        #expect(input.graph() == expected)
        #expect(input.graph(format: .dot) == expected)
        // From another node the numbering follows the walk from there.
        #expect(results.graph().contains("n0 [label=\"results\", style=bold];"))
    }

    @Test func mermaidIsDeterministic() {
        let a = MutableNode(1).named("a")
        let b = MutableNode(2).named("b \"quoted\"")
        let sum = Node.combine(a, b).mapEach { $0 + $1 }.named("sum")
        let expected = """
            flowchart TD
              n0["a"]
              n1["combine"]
              n2["b #quot;quoted#quot;"]
              n3["sum"]
              n0 -->|"combine"| n1
              n2 -->|"combine"| n1
              n1 -->|"mapEach"| n3

            """
        #expect(a.graph(format: .mermaid) == expected)
        _ = sum
    }

    @Test func ringsAreWalkedOnce() {
        let a = MutableNode(0).named("a")
        let b = MutableNode(0).named("b")
        let c = MutableNode(0).named("c")
        b.link(to: a)
        c.link(to: b)
        a.link(to: c)
        let expected = """
            digraph G {
              node [shape=box];
              n0 [label="a"];
              n1 [label="c"];
              n2 [label="b"];
              n1 -> n0 [label="Transform<Int, Int>"];
              n0 -> n2 [label="Transform<Int, Int>"];
              n2 -> n1 [label="Transform<Int, Int>"];
            }

            """
        #expect(a.graph() == expected)
        a.removeUpstreams()
        b.removeUpstreams()
        c.removeUpstreams()
    }

    @Test func traverseVisitsBreadthFirstAndCanStop() {
        let root = MutableNode(0).named("root")
        let left = root.map { $0 }.named("left")
        let right = root.filter { _ in true }.named("right")
        let leaf = left.fork().named("leaf")
        var names: [String] = []
        root.traverse { node in
            names.append(node.name ?? "?")
            return .proceed
        }
        #expect(names == ["root", "left", "right", "leaf"])
        names = []
        root.traverse { node in
            names.append(node.name ?? "?")
            return names.count == 2 ? .stop : .proceed
        }
        #expect(names == ["root", "left"])
        _ = (right, leaf)
    }

    @Test func graphQueries() {
        let bag = CancelBag()
        let a = MutableNode(1)
        let b = a.map { $0 }
        let c = Node.merge(a, b)
        #expect(a.downstreamNodes.count == 2)
        #expect(c.upstreamNodes.count == 2)
        #expect(c.upstreamTransforms.count == 2)
        #expect(a.downstreamTransforms.count == 2)
        #expect(c.upstreamTransforms(from: a).count == 1)
        #expect(!c.hasListener)
        c.listened(by: bag).withBlock { _ in }
        #expect(c.hasListener)
    }
}
