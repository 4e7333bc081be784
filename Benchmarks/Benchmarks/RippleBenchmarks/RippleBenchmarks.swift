import Benchmark

/// Every workload of `shared/design/benchmarks.md`, for the closure baseline, OpenCombine and Ripple, in one run so
/// the ratios between them are measured on the same machine at the same time.
let benchmarks: @Sendable () -> Void = {
    registerBaselineBenchmarks()
    registerOpenCombineBenchmarks()
    registerSignalsBenchmarks()
    registerNodesBenchmarks()
    registerNodesGraphBenchmarks()
    registerKairoBenchmarks()
    registerContentionBenchmarks()
    registerPipesBenchmarks()
    registerPipelineBenchmarks()
}
