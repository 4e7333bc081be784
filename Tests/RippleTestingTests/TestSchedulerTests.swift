import RippleCore
import RippleTesting
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule { log.record("now") }
        #expect(log.values.isEmpty)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(log.values == ["now"])
        #expect(scheduler.now == .zero)
    }

    @Test func workRunsInTimeOrderAndTiesInSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule(after: .seconds(3)) { log.record("c@3") }
        scheduler.schedule(after: .seconds(1)) { log.record("a@1") }
        scheduler.schedule(after: .seconds(1)) { log.record("b@1") }
        scheduler.schedule { log.record("first@0") }
        scheduler.run()
        #expect(log.values == ["first@0", "a@1", "b@1", "c@3"])
        #expect(scheduler.now == .seconds(3))
    }

    @Test func advanceRunsOnlyWhatIsDueAndReadsEachDueTime() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule(after: .milliseconds(500)) { log.record("half@\(scheduler.now)") }
        scheduler.schedule(after: .seconds(1)) { log.record("one@\(scheduler.now)") }
        scheduler.schedule(after: .seconds(2)) { log.record("two@\(scheduler.now)") }

        scheduler.advance(by: .milliseconds(999))
        #expect(log.values == ["half@0.5 seconds"])
        #expect(scheduler.now == .milliseconds(999))

        scheduler.advance(by: .milliseconds(1))
        #expect(log.values == ["half@0.5 seconds", "one@1.0 seconds"])
        #expect(scheduler.pendingCount == 1)
    }

    @Test func workScheduledByWorkRunsIfDueWithinTheWindow() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        scheduler.schedule(after: .seconds(1)) {
            log.record("outer")
            scheduler.schedule(after: .seconds(1)) { log.record("inner@\(scheduler.now)") }
            scheduler.schedule(after: .seconds(5)) { log.record("too late") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.values == ["outer", "inner@2.0 seconds"])
        #expect(scheduler.pendingCount == 1)
    }

    @Test func cancelledWorkNeverRuns() {
        let scheduler = TestScheduler()
        let log = Recorder<String>()
        let token = scheduler.schedule(after: .seconds(1)) { log.record("cancelled") }
        scheduler.schedule(after: .seconds(1)) { log.record("kept") }
        token.cancel()
        #expect(token.isCancelled)
        scheduler.advance(by: .seconds(10))
        #expect(log.values == ["kept"])
    }

    @Test func negativeDelayRunsAtTheCurrentInstant() {
        let scheduler = TestScheduler(now: .seconds(10))
        let log = Recorder<Duration>()
        scheduler.schedule(after: .seconds(-5)) { log.record(scheduler.now) }
        scheduler.advance()
        #expect(log.values == [.seconds(10)])
    }

    @Test func runDrainingInExactlyRunLimitActionsIsFine() {
        let scheduler = TestScheduler()
        scheduler.runLimit = 2
        let log = Recorder<Int>()
        scheduler.schedule { log.record(1) }
        scheduler.schedule(after: .seconds(1)) { log.record(2) }
        scheduler.run()
        #expect(log.values == [1, 2])
    }

    @Test func advancingBackwardsIsAProgrammerError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: .seconds(-1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.advance(by:) needs an interval ≥ 0, got -1.0 seconds"))
    }

    @Test func runStopsOnWorkThatNeverDrains() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Ticker: @unchecked Sendable {
                let scheduler = TestScheduler()
                func tick() { scheduler.schedule(after: .seconds(1)) { self.tick() } }
            }
            let ticker = Ticker()
            ticker.scheduler.runLimit = 100
            ticker.tick()
            ticker.scheduler.run()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.run() performed 100 actions (runLimit) without draining"))
    }
}
