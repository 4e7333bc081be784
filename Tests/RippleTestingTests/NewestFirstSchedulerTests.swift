import RippleCore
import RippleTesting
import Testing

@Suite("NewestFirstScheduler")
struct NewestFirstSchedulerTests {
    /// Work runs newest first, work scheduled by work joins the held work, and a cancelled piece never runs.
    @Test func runsHeldWorkNewestFirstAndSkipsCancelledWork() {
        let scheduler = NewestFirstScheduler()
        let ran = Recorder<String>()
        scheduler.schedule { ran.record("a") }
        let cancelled = scheduler.schedule(after: .seconds(5)) { ran.record("b") }
        scheduler.schedule {
            ran.record("c")
            scheduler.schedule { ran.record("d") }
        }
        cancelled.cancel()
        #expect(scheduler.pendingCount == 2)
        #expect(ran.values.isEmpty)
        scheduler.runNewestFirst()
        #expect(ran.values == ["c", "d", "a"])
        #expect(scheduler.pendingCount == 0)
    }
}
