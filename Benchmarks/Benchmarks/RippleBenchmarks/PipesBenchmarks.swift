import Benchmark
import RipplePipes

/// ActionPipe calls (issue 9: "ActionPipe call through 10 pipes (5 registered) ≤ 100 ns"), against the direct
/// protocol method call an ActionPipe replaces.
func registerPipesBenchmarks() {
    Benchmark("ActionPipe/DirectCall", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let target = makeDirectTarget(sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { _ = target.add(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "ActionPipe/DirectCall")
    }

    Benchmark("ActionPipe1/Ripple", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let pipe = makePipeChain(pipes: 1, registeredEvery: 1, sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { _ = pipe.add(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "ActionPipe1/Ripple")
    }

    Benchmark("ActionPipe10/Ripple", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let pipe = makePipeChain(pipes: 10, registeredEvery: 2, sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { _ = pipe.add(1) }
        benchmark.stopMeasurement()
        check(sum, equals: 5 * benchmark.scaledIterations.count, "ActionPipe10/Ripple")
    }
}

/// The actions "protocol" of the pipe workloads: one method taking and returning an Int.
struct BenchmarkActions: Sendable {
    var add = ActionKey<Int, Int>("add:")
}

/// The baseline's protocol: what the pipe call stands in for.
protocol DirectTarget: AnyObject {
    func add(_ value: Int) -> Int
}

final class DirectAdder: DirectTarget {
    let sum: Sum

    init(_ sum: Sum) {
        self.sum = sum
    }

    func add(_ value: Int) -> Int {
        sum.value &+= value
        return sum.value
    }
}

/// A second conformance, chosen never in practice: with a single conformer the optimiser devirtualises the
/// existential and folds the whole loop away.
final class DirectSubtractor: DirectTarget {
    let sum: Sum

    init(_ sum: Sum) {
        self.sum = sum
    }

    func add(_ value: Int) -> Int {
        sum.value &-= value
        return sum.value
    }
}

/// Returned as an existential picked at run time, so the call stays a protocol witness call.
@inline(never)
func makeDirectTarget(_ sum: Sum) -> any DirectTarget {
    CommandLine.arguments.contains("--never-given-subtract") ? DirectSubtractor(sum) : DirectAdder(sum)
}

/// `pipes` pipes chained in order, every `registeredEvery`-th one (from the first) with an `add` action; returns
/// the tail, so a call goes through the whole chain from its head.
@inline(never)
func makePipeChain(pipes: Int, registeredEvery: Int, _ sum: Sum) -> ActionPipe<BenchmarkActions> {
    let chain = (0..<pipes).map { _ in ActionPipe(BenchmarkActions()) }
    for (index, pipe) in chain.enumerated() where index % registeredEvery == 0 {
        pipe.registerAction(\.add).action { _, value in
            sum.value &+= value
            return sum.value
        }
    }
    for index in chain.indices.dropFirst() {
        chain[index - 1].addPipe(chain[index])
    }
    return chain[chain.count - 1]
}
