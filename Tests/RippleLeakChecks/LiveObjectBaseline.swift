import RippleCore

/// Runs `body` (build, drive and drop one chain) `iterations` times, then ends the process with a report: either
/// "<workload>: live objects held their baseline" or the kinds whose live count did not come back.
///
/// It runs inside an exit test, so the counts belong to a process of their own and no test running in parallel can
/// move them. It always ends the process through `fatalError` because Swift Testing hands the parent the child's
/// output only when the exit condition matched: ending the same way in both cases lets the parent show the report.
func reportLiveObjectsAfterRepeating(_ workload: String, iterations: Int = 10_000, _ body: () -> Void) -> Never {
    body()  // first use registers each kind's counter and fills any lazily created shared state
    let baseline = RippleDiagnostics.liveObjects
    for _ in 0..<iterations { body() }
    let after = RippleDiagnostics.liveObjects
    let leaked = after.filter { kind, count in count != baseline[kind, default: 0] }
    guard leaked.isEmpty else {
        let detail = leaked.keys.sorted()
            .map { "\($0): \(baseline[$0, default: 0]) → \(after[$0]!)" }
            .joined(separator: ", ")
        fatalError("\(workload): live objects did not return to baseline after \(iterations) runs: \(detail)")
    }
    fatalError("\(workload): live objects held their baseline over \(iterations) runs")
}
