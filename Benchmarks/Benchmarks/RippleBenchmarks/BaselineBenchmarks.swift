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
