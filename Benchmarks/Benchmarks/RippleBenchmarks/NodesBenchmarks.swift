import Benchmark
import RippleCore
import RippleNodes

/// The benchmarks.md workloads for RippleNodes, where the shape exists: a `MutableNode` is the source (a set is a
/// send), `listened(by:)` is the subscriber, `combine` is combineLatest and `flattenMap` is switch-to-latest.
/// Nodes have no merging flattenMap, so FlatMapsPumping/Creating are n/a here.
func registerNodesBenchmarks() {
    Benchmark("SubjectPumping/Nodes", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        source.listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "SubjectPumping/Nodes")
    }

    Benchmark("SubjectPumpingTwoSubscribers/Nodes", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        source.listened(by: bag).withBlock { sum.value &+= $0 }
        source.listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: 2 * benchmark.scaledIterations.count, "SubjectPumpingTwoSubscribers/Nodes")
    }

    Benchmark("SubjectCreating/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        for _ in benchmark.scaledIterations {
            let source = MutableNode<Int>()
            let listener = source.listened(by: bag).withBlock { sum.value &+= $0 }
            source.value = 1
            listener.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "SubjectCreating/Nodes")
    }

    Benchmark("MapFilterPumping/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        nodeMapFilterChain(source).listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterPumping/Nodes")
    }

    // Building over a node that holds 1: linking pushes it through, and the listener gets it as the current value.
    Benchmark("MapFilterCreating/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        for _ in benchmark.scaledIterations {
            let listener = nodeMapFilterChain(Node(1)).listened(by: bag).withBlock { sum.value &+= $0 }
            listener.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterCreating/Nodes")
    }

    Benchmark("FlatMapLatestPumping/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        nodeFlatMapLatestChain(source).listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestPumping/Nodes")
    }

    Benchmark("FlatMapLatestCreating/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        for _ in benchmark.scaledIterations {
            let listener = nodeFlatMapLatestChain(Node(1)).listened(by: bag).withBlock { sum.value &+= $0 }
            listener.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestCreating/Nodes")
    }

    Benchmark("CombineLatestPumping/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        let source = MutableNode<Int>()
        nodeCombineChain(source).listened(by: bag).withBlock { sum.value &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { source.value = 1 }
        benchmark.stopMeasurement()
        bag.cancel()
        check(sum, equals: benchmark.scaledIterations.count, "CombineLatestPumping/Nodes")
    }

    Benchmark("CombineLatestCreating/Nodes", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let bag = CancelBag()
        for _ in benchmark.scaledIterations {
            let listener = nodeCombineChain(Node(1)).listened(by: bag).withBlock { sum.value &+= $0 }
            listener.cancel()
        }
        check(sum, equals: benchmark.scaledIterations.count, "CombineLatestCreating/Nodes")
    }
}

/// Six (map identity, filter always-true) pairs: 12 operators.
func nodeMapFilterChain(_ source: Node<Int>) -> Node<Int> {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

/// Five chained `flattenMap { Node($0) }`: each value switches every level to a fresh constant node.
func nodeFlatMapLatestChain(_ source: Node<Int>) -> Node<Int> {
    source
        .flattenMap { Node($0) }
        .flattenMap { Node($0) }
        .flattenMap { Node($0) }
        .flattenMap { Node($0) }
        .flattenMap { Node($0) }
}

/// Seven nested 4-input `combine` levels: three constant nodes and the previous level, whose value each level
/// passes on through `mapEach` (RxSwift's result selector).
func nodeCombineChain(_ source: Node<Int>) -> Node<Int> {
    var last = source
    for _ in 0..<7 {
        last = Node.combine(Node(1), Node(1), Node(1), last).mapEach { _, _, _, x in x }
    }
    return last
}
