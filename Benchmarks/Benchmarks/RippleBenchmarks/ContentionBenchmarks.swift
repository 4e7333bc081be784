// Contention rows of issue 28 (item 4): throughput of whole transactions when several real threads set nodes.
// The unit is one transaction (one set of a graph's source, settled through a diamond to a listener), counted over
// all threads, so ns per unit compares directly between the rows:
//   Contention1Thread/Nodes            one thread, one graph: the reference
//   Contention2Threads2Graphs/Nodes    two threads, each setting its own graph (target ≥ 1.6× the reference's
//                                      throughput, i.e. ≤ 0.625× its ns per unit)
//   Contention4Threads1Graph/Nodes     four threads setting one graph (target ≥ 0.5× the reference's throughput, and
//                                      it must finish: a deadlock hangs the run)
// Run them together (`--filter "Contention.*"`) so the ratios come from one run on one machine state.
//
// Invariants: every row spawns its threads before the measurement starts and releases them at once through a start
// gate, so thread creation is not measured and the threads overlap; each thread sets a value nobody else sets. A graph
// set by one thread must deliver exactly one consistent value per transaction (the row stops otherwise); the
// four-thread row reports what its listener saw as metrics instead (engine 2 settles a node twice and shows torn pairs
// there, which is what engine 3 fixes; its tests, not this row, check that).
import Benchmark
import Dispatch
import Foundation
import RippleCore
import RippleNodes
import Synchronization

/// What one graph's listener heard. Its own object, so two graphs' counters do not share a cache line (false sharing
/// would make the two-graph row measure the line's ping-pong, not the engine).
final class ContentionCounters: Sendable {
    let emissions = Atomic<Int>(0)
    let inconsistent = Atomic<Int>(0)
    let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// a → (a + 1, a × 2) → combine → one listener, which counts emissions and pairs that do not come from one value of
/// `a` (a torn transaction).
final class ContentionGraph: Sendable {
    let source = MutableNode(0)
    let bag = CancelBag()
    let counters = ContentionCounters()

    init() {
        let plusOne = source.map { $0 &+ 1 }
        let twice = source.map { $0 &* 2 }
        Node.combine(plusOne, twice).listened(by: bag).withBlock { [counters] pair in
            counters.emissions.wrappingAdd(1, ordering: .relaxed)
            if pair.1 != (pair.0 &- 1) &* 2 { counters.inconsistent.wrappingAdd(1, ordering: .relaxed) }
        }
        counters.emissions.store(0, ordering: .relaxed) // the value heard at attach is not a transaction
    }

    var emissions: Int { counters.emissions.load(ordering: .relaxed) }
    var inconsistent: Int { counters.inconsistent.load(ordering: .relaxed) }

    func cancel() { bag.cancel() }
}

/// Runs `body(thread)` on `count` new threads, released together once all exist; `measure` brackets the part where
/// they run. Returns when every thread has finished; stops the run if they have not after `deadline` seconds (a
/// deadlock must fail loudly, not hang the suite).
func runThreads(_ count: Int, deadline: Int = 120, measure: (() -> Void) -> Void,
                _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let thread = Thread {
            ready.signal()
            start.wait()
            body(index)
            done.signal()
        }
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    measure {
        for _ in 0..<count { start.signal() }
        for finished in 0..<count {
            if done.wait(timeout: .now() + .seconds(deadline)) == .timedOut {
                fatalError("\(finished) of \(count) threads finished within \(deadline) s: deadlocked or starved")
            }
        }
    }
}

func registerContentionBenchmarks() {
    // A million transactions per iteration (~1 s on engine 2): long enough for the threads to overlap through many
    // scheduler slices.
    let config = Benchmark.Configuration(metrics: standardMetrics, scalingFactor: .mega, maxDuration: .seconds(5),
                                         maxIterations: 20)

    Benchmark("Contention1Thread/Nodes", configuration: config) { benchmark in
        let graph = ContentionGraph()
        let transactions = benchmark.scaledIterations.count
        runThreads(1, measure: { run in
            benchmark.startMeasurement()
            run()
            benchmark.stopMeasurement()
        }) { _ in
            for value in 1...transactions { graph.source.value = value }
        }
        graph.cancel()
        checkSingleSetter(graph, transactions, "Contention1Thread/Nodes")
    }

    Benchmark("Contention2Threads2Graphs/Nodes", configuration: config) { benchmark in
        let graphs = [ContentionGraph(), ContentionGraph()]
        let perThread = benchmark.scaledIterations.count / 2
        runThreads(2, measure: { run in
            benchmark.startMeasurement()
            run()
            benchmark.stopMeasurement()
        }) { thread in
            let source = graphs[thread].source
            for value in 1...perThread { source.value = value }
        }
        for graph in graphs {
            graph.cancel()
            checkSingleSetter(graph, perThread, "Contention2Threads2Graphs/Nodes")
        }
    }

    let emissions = BenchmarkMetric.custom("emissions per 1,000 transactions", polarity: .prefersSmaller,
                                           useScalingFactor: false)
    let torn = BenchmarkMetric.custom("inconsistent pairs per 1,000 transactions", polarity: .prefersSmaller,
                                      useScalingFactor: false)
    var shared = config
    shared.metrics += [emissions, torn]
    Benchmark("Contention4Threads1Graph/Nodes", configuration: shared) { benchmark in
        let graph = ContentionGraph()
        let perThread = benchmark.scaledIterations.count / 4
        runThreads(4, measure: { run in
            benchmark.startMeasurement()
            run()
            benchmark.stopMeasurement()
        }) { thread in
            // Thread t sets 4i + t: no two sets write the same value.
            for index in 1...perThread { graph.source.value = index &* 4 &+ thread }
        }
        graph.cancel()
        let transactions = perThread * 4
        benchmark.measurement(emissions, graph.emissions * 1_000 / transactions)
        benchmark.measurement(torn, graph.inconsistent * 1_000 / transactions)
    }
}

/// A graph that one thread set: one consistent emission per transaction, or the engine is broken.
private func checkSingleSetter(_ graph: ContentionGraph, _ transactions: Int, _ workload: String) {
    let heard = graph.emissions
    let torn = graph.inconsistent
    if heard != transactions || torn != 0 {
        fatalError("\(workload): \(heard) emissions (\(torn) inconsistent) for \(transactions) transactions")
    }
}
