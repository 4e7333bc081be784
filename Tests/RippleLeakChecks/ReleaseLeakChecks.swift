import Testing

/// Checks the report a leak-check child process ended with.
func expectBaselineHeld(_ result: ExitTest.Result?, _ workload: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    let report = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(report.contains("\(workload): live objects held their baseline over 10000 runs"),
            "\(report)", sourceLocation: sourceLocation)
}

/// Issue 10's release-mode leak check: every room's operator chains are built, driven and dropped 10,000 times, and
/// the live-object counts (RippleDiagnostics) must come back to their baseline. CI also runs this target with
/// `swift test -c release --filter RippleLeakChecks`.
@Suite("Live objects return to baseline after 10,000 build/drive/drop cycles")
struct ReleaseLeakChecks {
    @Test func nodes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            reportLiveObjectsAfterRepeating("nodes", NodesLeakWorkload.run)
        }
        expectBaselineHeld(result, "nodes")
    }

    @Test func signals() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            reportLiveObjectsAfterRepeating("signals", SignalsLeakWorkload.run)
        }
        expectBaselineHeld(result, "signals")
    }

    @Test func pipes() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            reportLiveObjectsAfterRepeating("pipes", PipesLeakWorkload.run)
        }
        expectBaselineHeld(result, "pipes")
    }

    @Test func pipeline() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            reportLiveObjectsAfterRepeating("pipeline", PipelineLeakWorkload.run)
        }
        expectBaselineHeld(result, "pipeline")
    }

    @Test func lifecycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { () -> Void in
                reportLiveObjectsAfterRepeating("lifecycle", LifecycleLeakWorkload.run)
            }
        }
        expectBaselineHeld(result, "lifecycle")
    }

    @Test func aLeakIsCaught() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            nonisolated(unsafe) var kept: [AnyObject] = []
            reportLiveObjectsAfterRepeating("deliberate leak", iterations: 10) {
                kept.append(NodesLeakWorkload.leakOneNode())
            }
        }
        let report = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(report.contains("deliberate leak: live objects did not return to baseline after 10 runs: Node: "))
    }
}
