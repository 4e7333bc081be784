import Benchmark

/// The floor: the same shapes as hand-written closures, with no library in between.
func registerBaselineBenchmarks() {
    Benchmark("SubjectPumping/Baseline", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let receiver = makeReceiver(sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { receiver(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "SubjectPumping/Baseline")
    }

    Benchmark("SubjectPumpingTwoSubscribers/Baseline", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let receivers = [makeReceiver(sum), makeReceiver(sum)]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for receiver in receivers { receiver(1) }
        }
        benchmark.stopMeasurement()
        check(sum, equals: 2 * benchmark.scaledIterations.count, "SubjectPumpingTwoSubscribers/Baseline")
    }

    Benchmark("MapFilterPumping/Baseline", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let chain = makeMapFilterChain(sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { chain(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterPumping/Baseline")
    }

    Benchmark("MapFilterCreating/Baseline", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let chain = makeMapFilterChain(sum)
            chain(1)
        }
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterCreating/Baseline")
    }

    Benchmark("FlatMapsPumping/Baseline", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let chain = makeFlatMapChain(sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { chain(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapsPumping/Baseline")
    }

    Benchmark("CombineLatestPumping/Baseline", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let chain = makeCombineLatestChain(sum)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { chain(1) }
        benchmark.stopMeasurement()
        check(sum, equals: benchmark.scaledIterations.count, "CombineLatestPumping/Baseline")
    }
}

@inline(never)
func makeReceiver(_ sum: Sum) -> (Int) -> Void {
    { sum.value &+= $0 }
}

/// Six (map identity, filter always-true) pairs in front of a sink: 12 closure hops, built at run time so the
/// optimiser cannot fold them away.
@inline(never)
func makeMapFilterChain(_ sum: Sum) -> (Int) -> Void {
    var next: (Int) -> Void = makeReceiver(sum)
    for _ in 0..<6 {
        let afterFilter = next
        let filter: (Int) -> Void = { value in if alwaysTrue(value) { afterFilter(value) } }
        next = { value in filter(identity(value)) }
    }
    return next
}

@inline(never) func identity(_ value: Int) -> Int { value }
@inline(never) func alwaysTrue(_ value: Int) -> Bool { value != .min }

/// Five levels that each wrap the value in an inner "just" closure and run it into the next level: the work of
/// `flatMap { just($0) }` with no subscription bookkeeping.
@inline(never)
func makeFlatMapChain(_ sum: Sum) -> (Int) -> Void {
    var next: (Int) -> Void = makeReceiver(sum)
    for _ in 0..<5 {
        let downstream = next
        next = { value in
            let just: ((Int) -> Void) -> Void = { receiver in receiver(identity(value)) }
            just(downstream)
        }
    }
    return next
}

/// Seven levels that each store the latest of four inputs (three constants and the previous level) and pass the
/// last one on: combineLatest's state with no locking or tuple building.
@inline(never)
func makeCombineLatestChain(_ sum: Sum) -> (Int) -> Void {
    var next: (Int) -> Void = makeReceiver(sum)
    for _ in 0..<7 {
        let level = LatestValues(next)
        next = { value in level.receive(value) }
    }
    return next
}

final class LatestValues {
    private var latest = [1, 1, 1, 0]
    private let downstream: (Int) -> Void

    init(_ downstream: @escaping (Int) -> Void) {
        self.downstream = downstream
    }

    @inline(never)
    func receive(_ value: Int) {
        latest[3] = value
        downstream(latest[3])
    }
}
