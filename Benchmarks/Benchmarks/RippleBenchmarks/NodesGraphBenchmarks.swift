import Benchmark
import RippleCore
import RippleNodes

/// The Ripple-only RippleNodes workloads of benchmarks.md: EasyReact's shapes (10 listeners × 1,000 sets per
/// operator; combine/zip/merge fed by two alternating sources), fan-out, a deep chain and the diamond.
/// The unit is one set of a source node.
func registerNodesGraphBenchmarks() {
    registerOperatorBenchmark("Map") { $0.map { $0 } }
    registerOperatorBenchmark("Filter") { $0.filter { $0 > 0 } }
    registerOperatorBenchmark("Fork") { $0.fork() }
    registerOperatorBenchmark("Scan") { $0.scan(start: 0) { _, value in value } }
    registerOperatorBenchmark("DistinctUntilChanged", values: { $0 & 1 }) { $0.distinctUntilChanged() }
    registerOperatorBenchmark("FlattenMap") { $0.flattenMap { Node($0) } }

    // Two sources set in turn (a, b, a, b, …); every listener counts emissions. For combine both sources start at 0,
    // so it emits on every set; zip's sources start empty (or it would stay one pair ahead) and it emits on every
    // second set; merge emits on every set.
    registerAlternatingBenchmark("Combine", initial: 0, setsPerEmission: 1) {
        Node.combine($0, $1).map { $0.0 &+ $0.1 }
    }
    registerAlternatingBenchmark("Zip", initial: nil, setsPerEmission: 2) { Node.zip($0, $1).map { $0.0 &+ $0.1 } }
    registerAlternatingBenchmark("Merge", initial: 0, setsPerEmission: 1) { Node.merge($0, $1) }

    registerFanOutBenchmark(listeners: 100)
    registerFanOutBenchmark(listeners: 1_000)

    Benchmark("DeepChain100Forks/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        var last: Node<Int> = source
        for _ in 0..<100 { last = last.fork() }
        last.listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "DeepChain100Forks/Nodes")
    }

    registerDeepChainBenchmark(depth: 10)
    registerDeepChainBenchmark(depth: 1_000)

    // 10,000 listeners attached to one node, then cancelled in attach order; the unit is that round (divide by
    // 10,000 for one attach + cancel).
    Benchmark("Attach10000/Nodes", configuration: configuration(.one)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let node = MutableNode(1)
        var tokens: [any CancelToken] = []
        tokens.reserveCapacity(10_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for _ in 0..<10_000 { tokens.append(node.listened(by: bag).withBlock { sum.value &+= $0 }) }
            for token in tokens { token.cancel() }
            tokens.removeAll(keepingCapacity: true)
        }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count * 10_000, "Attach10000/Nodes")
    }

    // Ten layers of ten nodes, each combining two nodes of the layer before; one listener on a node of the last
    // layer, which must hear exactly one value per update.
    Benchmark("DiamondGrid10x10/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode(0)
        var layer: [Node<Int>] = (0..<10).map { column in source.map { $0 &+ column } }
        for _ in 1..<10 {
            layer = (0..<10).map { column in
                Node.combine(layer[column], layer[(column + 1) % 10]).mapEach { $0 &+ $1 }
            }
        }
        layer[0].listened(by: bag).withBlock { _ in sum.value &+= 1 }
        sum.value = 0
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { source.value = value }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "DiamondGrid10x10/Nodes")
    }

    // Two sources set in one `Node.batch`, combined: one emission per batch.
    Benchmark("Batch/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let a = MutableNode(0)
        let b = MutableNode(0)
        Node.combine(a, b).listened(by: bag).withBlock { _ in sum.value &+= 1 }
        sum.value = 0
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            Node.batch {
                a.value = value
                b.value = value
            }
        }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "Batch/Nodes")
    }

    // a → (b, c) → combine(b, c). Every update of a must end in a consistent emission (b == c); the emissions and
    // the inconsistent ones (glitches: the new b with the old c) per update are reported as metrics.
    let emissions = BenchmarkMetric.custom("emissions per update", polarity: .prefersSmaller, useScalingFactor: false)
    let glitches = BenchmarkMetric.custom("glitches per update", polarity: .prefersSmaller, useScalingFactor: false)
    var diamond = configuration(.kilo)
    diamond.metrics += [emissions, glitches]
    Benchmark("Diamond/Nodes", configuration: diamond) { benchmark in
        let consistent = Sum()
        let inconsistent = Sum()
        let bag = CancelBag()
        let a = MutableNode(-1)
        let b = a.map { $0 }
        let c = a.map { $0 }
        Node.combine(b, c).listened(by: bag).withBlock { pair in
            if pair.0 == pair.1 { consistent.value &+= 1 } else { inconsistent.value &+= 1 }
        }
        consistent.value = 0 // the initial (-1, -1) the listener received at once does not count
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { a.value = value }
        benchmark.stopMeasurement()
        bag.cancel()
        let updates = benchmark.scaledIterations.count
        check(consistent, equals: updates, "Diamond/Nodes (consistent emissions)")
        benchmark.measurement(emissions, (consistent.value + inconsistent.value) / updates)
        benchmark.measurement(glitches, inconsistent.value / updates)
    }
}

/// `DeepChain<depth>/Nodes`: `depth` chained `map`s, one listener at the end; the unit is one set (divide by
/// `depth` for the cost per hop).
private func registerDeepChainBenchmark(depth: Int) {
    let workload = "DeepChain\(depth)/Nodes"
    Benchmark(workload, configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        var last: Node<Int> = source
        for _ in 0..<depth { last = last.map { $0 } }
        last.listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, workload)
    }
}

/// `OperatorSet<name>/Nodes`: one source, `operation` applied once, 10 listeners on the result, 1,000 sets.
private func registerOperatorBenchmark(_ name: String, values: @escaping @Sendable (Int) -> Int = { _ in 1 },
                                       _ operation: @escaping @Sendable (Node<Int>) -> Node<Int>) {
    let workload = "OperatorSet\(name)/Nodes"
    Benchmark(workload, configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        let result = operation(source)
        for _ in 0..<10 { result.listened(by: bag).withBlock { sum.value &+= $0 } }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations { source.value = values(index) }
        benchmark.stopMeasurement()
        bag.cancel()
        let expected = benchmark.scaledIterations.reduce(0) { $0 + values($1) }
        check(sum, equals: 10 * expected, workload)
    }
}

/// `Alternating<name>/Nodes`: `combining` two sources that are set in turn, 10 listeners counting emissions.
private func registerAlternatingBenchmark(_ name: String, initial: Int?, setsPerEmission: Int,
                                          _ combining: @escaping @Sendable (Node<Int>, Node<Int>) -> Node<Int>) {
    let workload = "Alternating\(name)/Nodes"
    Benchmark(workload, configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        a.value = initial
        b.value = initial
        let result = combining(a, b)
        for _ in 0..<10 { result.listened(by: bag).withBlock { _ in sum.value &+= 1 } }
        sum.value = 0 // the initial values the listeners received at once do not count
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if index & 1 == 0 { a.value = 1 } else { b.value = 1 }
        }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: 10 * benchmark.scaledIterations.count / setsPerEmission, workload)
    }
}

/// `FanOut<n>/Nodes`: one source set repeatedly, `listeners` listeners on it; the unit is one set.
private func registerFanOutBenchmark(listeners: Int) {
    let workload = "FanOut\(listeners)/Nodes"
    Benchmark(workload, configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        for _ in 0..<listeners { source.listened(by: bag).withBlock { sum.value &+= $0 } }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: listeners * benchmark.scaledIterations.count, workload)
    }
}
