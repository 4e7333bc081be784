import Benchmark

/// The kairo shapes of js-reactivity-benchmark (`KairoShapes.swift`); the unit is one update (one set of a source).
/// Each run checks the effect runs and values against the JS case and stops on a mismatch.
func registerKairoBenchmarks() {
    for name in KairoGraph.names {
        let workload = "\(name)/Nodes"
        Benchmark(workload, configuration: configuration(.kilo)) { benchmark in
            guard let graph = KairoGraph.named(name) else { fatalError("\(workload): no such shape") }
            let updates = benchmark.scaledIterations.count
            benchmark.startMeasurement()
            for k in 1...updates { graph.update(k) }
            benchmark.stopMeasurement()
            graph.verify(updates: updates)
            graph.cancel()
        }
    }
}
