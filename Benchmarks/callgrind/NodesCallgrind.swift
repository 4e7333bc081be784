// Callgrind harness for the RippleNodes rows of BENCHMARKS.md: `NodesCallgrind <workload> <units>` runs one
// workload's setup, then `units` units of it. Instructions per unit = (Ir at 2N − Ir at N) ÷ N, so setup cancels out.
// Build against a release build of RippleNodes (see BENCHMARKS.md, "Callgrind"):
//   swift build -c release --target RippleNodes
//   swiftc -O -parse-as-library -I .build/release/Modules Benchmarks/callgrind/NodesCallgrind.swift \
//     .build/release/{RippleNodes,RippleCore,DequeModule,InternalCollectionsUtilities}.build/*.o -o /tmp/nodes-cg
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/nodes-cg MapFilterPumping 1000
// With -DOPENCOMBINE and OpenCombine's objects, `OpenCombine/MapFilterPumping` and `OpenCombine/MapFilterCreating`
// run OpenCombineBenchmarks.swift's shapes with this file's `Sum`, so a ratio is instructions against instructions.
// The kairo workloads (`KairoDeep` …) need the shapes file compiled in: add
//   Benchmarks/Benchmarks/RippleBenchmarks/KairoShapes.swift
// after this file; `Benchmarks/callgrind/run-nodes.sh` does all of it and prints the table.
#if canImport(Glibc)
import Glibc
#endif
import RippleCore
import RippleNodes
#if OPENCOMBINE
import OpenCombine
#endif

final class Sum: @unchecked Sendable {
    var value = 0
}

func mapFilterChain(_ source: Node<Int>) -> Node<Int> {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

func flatMapLatestChain(_ source: Node<Int>) -> Node<Int> {
    source.flattenMap { Node($0) }.flattenMap { Node($0) }.flattenMap { Node($0) }.flattenMap { Node($0) }
        .flattenMap { Node($0) }
}

func combineChain(_ source: Node<Int>) -> Node<Int> {
    var last = source
    for _ in 0..<7 { last = Node.combine(Node(1), Node(1), Node(1), last).mapEach { _, _, _, x in x } }
    return last
}

func pump(_ n: Int, listeners: Int = 1, _ build: (MutableNode<Int>) -> Node<Int>) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    let source = MutableNode<Int>()
    let result = build(source)
    for _ in 0..<listeners { result.listened(by: bag).withBlock { sum.value &+= $0 } }
    for index in 0..<n { source.value = index & 1 }
    bag.cancel()
    return sum.value
}

func create(_ n: Int, _ build: (Node<Int>) -> Node<Int>) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    for _ in 0..<n { build(Node(1)).listened(by: bag).withBlock { sum.value &+= $0 }.cancel() }
    return sum.value
}

func chain(_ n: Int, depth: Int) -> Int {
    pump(n) { source in
        var last: Node<Int> = source
        for _ in 0..<depth { last = last.map { $0 } }
        return last
    }
}

/// Attaching `population` listeners to one node, then cancelling them in attach order; the unit is one
/// attach + cancel.
func attach(_ n: Int, population: Int) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    let node = MutableNode(1)
    var tokens: [any CancelToken] = []
    tokens.reserveCapacity(population)
    for _ in 0..<(n / population) {
        for _ in 0..<population { tokens.append(node.listened(by: bag).withBlock { sum.value &+= $0 }) }
        for token in tokens { token.cancel() }
        tokens.removeAll(keepingCapacity: true)
    }
    return sum.value
}

/// Linking `population` `map` nodes to one node, then freeing them in link order; the unit is one link + unlink.
func link(_ n: Int, population: Int) -> Int {
    let source = MutableNode(1)
    var nodes: [Node<Int>] = []
    nodes.reserveCapacity(population)
    var sum = 0
    for _ in 0..<(n / population) {
        for _ in 0..<population { nodes.append(source.map { $0 }) }
        sum &+= nodes.count
        nodes.removeAll(keepingCapacity: true)
    }
    return sum
}

func alternating(_ n: Int, initial: Int?, _ combining: (Node<Int>, Node<Int>) -> Node<Int>) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    let a = MutableNode<Int>()
    let b = MutableNode<Int>()
    a.value = initial
    b.value = initial
    let result = combining(a, b)
    for _ in 0..<10 { result.listened(by: bag).withBlock { _ in sum.value &+= 1 } }
    for index in 0..<n { if index & 1 == 0 { a.value = 1 } else { b.value = 1 } }
    bag.cancel()
    return sum.value
}

func grid(_ n: Int) -> Int {
    let source = MutableNode(0)
    var layer: [Node<Int>] = (0..<10).map { column in source.map { $0 &+ column } }
    for _ in 1..<10 {
        layer = (0..<10).map { column in
            Node.combine(layer[column], layer[(column + 1) % 10]).mapEach { $0 &+ $1 }
        }
    }
    let sum = Sum()
    let bag = CancelBag()
    layer[0].listened(by: bag).withBlock { _ in sum.value &+= 1 }
    for index in 0..<n { source.value = index }
    bag.cancel()
    return sum.value
}

func diamond(_ n: Int) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    let a = MutableNode(-1)
    let b = a.map { $0 }
    let c = a.map { $0 }
    Node.combine(b, c).listened(by: bag).withBlock { _ in sum.value &+= 1 }
    for index in 0..<n { a.value = index }
    bag.cancel()
    return sum.value
}

#if BATCH
func batch(_ n: Int) -> Int {
    let sum = Sum()
    let bag = CancelBag()
    let a = MutableNode(0)
    let b = MutableNode(0)
    Node.combine(a, b).listened(by: bag).withBlock { _ in sum.value &+= 1 }
    for index in 0..<n {
        Node.batch {
            a.value = index
            b.value = index
        }
    }
    bag.cancel()
    return sum.value
}
#endif

/// Resident bytes per live `map` node (with its transform and slot), over 100,000 nodes in a chain: the growth of
/// the resident set (`/proc/self/statm`, in pages) divided by the node count.
func residentBytes() -> Int {
    var text = ""
    if let file = fopen("/proc/self/statm", "r") {
        var buffer = [CChar](repeating: 0, count: 256)
        if fgets(&buffer, 256, file) != nil { text = String(cString: buffer) }
        fclose(file)
    }
    return Int(text.split(separator: " ")[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The measured nodes, never freed (engine 1 overflowed the stack freeing a chain this deep).
nonisolated(unsafe) var keptNodes: [Node<Int>] = []

func mapNodeBytes() -> Int {
    let count = 100_000
    let source = MutableNode(1)
    keptNodes.reserveCapacity(count + 1)
    keptNodes.append(source)
    let before = residentBytes()
    var tail: Node<Int> = source
    for _ in 0..<count {
        tail = tail.map { $0 }
        keptNodes.append(tail)
    }
    return (residentBytes() - before) / count
}

#if OPENCOMBINE
func ocMapFilterChain<Source: Publisher>(_ source: Source) -> some Publisher<Int, Never>
where Source.Output == Int, Source.Failure == Never {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

func ocPump<P: Publisher>(_ n: Int, _ build: (PassthroughSubject<Int, Never>) -> P) -> Int
where P.Output == Int, P.Failure == Never {
    let sum = Sum()
    let subject = PassthroughSubject<Int, Never>()
    let subscription = build(subject).sink { sum.value &+= $0 }
    for index in 0..<n { subject.send(index & 1) }
    subscription.cancel()
    return sum.value
}

func ocCreate<P: Publisher>(_ n: Int, _ build: (Just<Int>) -> P) -> Int where P.Output == Int, P.Failure == Never {
    let sum = Sum()
    for _ in 0..<n {
        let subscription = build(Just(1)).sink { sum.value &+= $0 }
        subscription.cancel()
    }
    return sum.value
}
#endif

/// A kairo shape (KairoShapes.swift): setup, then updates 1…n; stops with a message if the effects did not run as
/// js-reactivity-benchmark's case says they must.
func runKairo(_ name: String, _ n: Int) -> Int {
    guard let graph = KairoGraph.named(name) else { fatalError("unknown workload \(name)") }
    for k in 1...n { graph.update(k) }
    graph.verify(updates: n)
    graph.cancel()
    return graph.effects.runs
}

@main
struct NodesCallgrind {
    static func main() {
        let arguments = CommandLine.arguments
        let name = arguments[1]
        let n = arguments.count > 2 ? Int(arguments[2])! : 1000
        let result: Int
        switch name {
        case "SubjectPumping": result = pump(n) { $0 }
        case "SubjectPumpingTwoSubscribers": result = pump(n, listeners: 2) { $0 }
        case "SubjectCreating": result = create(n) { $0 }
        case "MapFilterPumping": result = pump(n, mapFilterChain)
        case "MapFilterCreating": result = create(n, mapFilterChain)
        case "FlatMapLatestPumping": result = pump(n, flatMapLatestChain)
        case "FlatMapLatestCreating": result = create(n, flatMapLatestChain)
        case "CombineLatestPumping": result = pump(n, combineChain)
        case "CombineLatestCreating": result = create(n, combineChain)
        case "FanOut100": result = pump(n, listeners: 100) { $0 }
        case "FanOut1000": result = pump(n, listeners: 1_000) { $0 }
        case "DeepChain10": result = chain(n, depth: 10)
        case "DeepChain100": result = chain(n, depth: 100)
        case "DeepChain1000": result = chain(n, depth: 1_000)
        case "DeepChain100Forks": result = pump(n) { source in
            var last: Node<Int> = source
            for _ in 0..<100 { last = last.fork() }
            return last
        }
        case "Attach1000": result = attach(n, population: 1_000)
        case "Attach10000": result = attach(n, population: 10_000)
        case "Link1000": result = link(n, population: 1_000)
        case "Link10000": result = link(n, population: 10_000)
        case "Diamond": result = diamond(n)
        case "DiamondGrid10x10": result = grid(n)
        #if BATCH
        case "Batch": result = batch(n)
        #endif
        case "AlternatingCombine": result = alternating(n, initial: 0) { Node.combine($0, $1).map { $0.0 &+ $0.1 } }
        case "AlternatingZip": result = alternating(n, initial: nil) { Node.zip($0, $1).map { $0.0 &+ $0.1 } }
        case "AlternatingMerge": result = alternating(n, initial: 0) { Node.merge($0, $1) }
        case "OperatorSetMap": result = pump(n, listeners: 10) { $0.map { $0 } }
        #if OPENCOMBINE
        case "OpenCombine/MapFilterPumping": result = ocPump(n) { ocMapFilterChain($0) }
        case "OpenCombine/MapFilterCreating": result = ocCreate(n) { ocMapFilterChain($0) }
        #endif
        case let kairo where kairo.hasPrefix("Kairo"): result = runKairo(kairo, n)
        case "MapNodeBytes":
            // Exits with the nodes alive: engine 1 overflowed the stack freeing a chain this deep.
            print(name, mapNodeBytes())
            exit(0)
        default: fatalError("unknown workload \(name)")
        }
        print(name, n, result)
    }
}
