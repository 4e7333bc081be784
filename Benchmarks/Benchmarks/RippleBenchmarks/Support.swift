import Benchmark

/// The value every workload's subscribers add into; checked after each run so a broken chain cannot look fast.
final class Sum: @unchecked Sendable {
    // Written only by the benchmark's own thread: every workload here is single-threaded.
    var value = 0
}

/// Stops the run when a workload did not deliver what it should have.
func check(_ sum: Sum, equals expected: Int, _ workload: String) {
    if sum.value != expected {
        fatalError("\(workload): sum \(sum.value), expected \(expected) — the chain is broken")
    }
}

/// Metrics every workload reports: time, instructions where the machine has them, and allocations.
let standardMetrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .throughput]

/// Configuration for a workload whose inner loop runs `scale` units.
func configuration(_ scale: BenchmarkScalingFactor) -> Benchmark.Configuration {
    .init(metrics: standardMetrics, scalingFactor: scale, maxDuration: .seconds(2), maxIterations: 1_000)
}
