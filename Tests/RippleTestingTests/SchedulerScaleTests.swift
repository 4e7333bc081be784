@testable import RippleTesting
import RippleCore
import Testing

@Suite("TestScheduler at scale and under re-entrancy")
struct SchedulerScaleTests {
    /// 100,000 actions: half due at one instant (a burst of deliveries), half spread over 1,000 instants, one in four
    /// cancelled. Each is scheduled and then run or skipped for a bounded number of queue steps (slots compared or
    /// moved), not for a number proportional to the queue's length: counted, not timed. The burst still runs in
    /// scheduling order.
    @Test func oneHundredThousandActionsCostLogarithmicStepsEach() {
        let half = 50_000
        let scheduler = TestScheduler()
        let burst = Locked<[Int]>([])
        let spread = Locked(0)
        var tokens: [any CancelToken] = []
        for index in 0..<half {
            scheduler.schedule(after: .seconds(1)) { burst.withLock { $0.append(index) } }
            tokens.append(scheduler.schedule(after: .seconds(Int64(index % 1000) + 2)) { spread.withLock { $0 += 1 } })
        }
        for (index, token) in tokens.enumerated() where index.isMultiple(of: 2) {
            token.cancel()
        }
        #expect(scheduler.pendingCount == half + half / 2)

        scheduler.run()
        #expect(burst.value == Array(0..<half))
        #expect(spread.value == half / 2)
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .seconds(1001))
        // A binary heap takes about 2·log2(100,000) ≈ 34 steps for a push and a pop; a sorted array took 15,625
        // per action at a tenth of this size.
        #expect(scheduler.queueSteps <= 50 * 2 * half, "\(scheduler.queueSteps) queue steps for \(2 * half) actions")
    }

    /// An action that advances the clock further than the advance running it (a listener driving the clock): once
    /// both return the clock reads the later instant, and work scheduled then is due after it, never in the past.
    @Test func anAdvanceFromInsideAnActionNeverTurnsTheClockBack() {
        let scheduler = TestScheduler()
        let log = Recorder<String>(scheduler: scheduler)
        scheduler.schedule(after: .seconds(5)) {
            log.record("at 5")
            scheduler.advance(to: .seconds(20))
        }
        scheduler.schedule(after: .seconds(15)) { log.record("at 15") }
        scheduler.advance(to: .seconds(10))
        #expect(scheduler.now == .seconds(20))

        scheduler.schedule(after: .seconds(1)) { log.record("one second later") }
        scheduler.advance(by: .seconds(1))
        #expect(log.events == [.value(.seconds(5), "at 5"), .value(.seconds(15), "at 15"),
                               .value(.seconds(21), "one second later")])
    }

    /// An action that reschedules itself with no delay never lets the clock move, so an advance could never reach its
    /// target: it stops with a message after runLimit actions at one instant instead of hanging the test run. (The
    /// watchdog turns a hang into a failure of this test.)
    @Test func advanceStopsOnWorkThatNeverLetsTimePass() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startDeadlockWatchdog(seconds: 10)
            final class Spinner: @unchecked Sendable {
                let scheduler = TestScheduler()
                func spin() { scheduler.schedule { self.spin() } }
            }
            let spinner = Spinner()
            spinner.scheduler.runLimit = 100
            spinner.scheduler.schedule(after: .seconds(3)) { spinner.spin() }
            spinner.scheduler.advance(by: .seconds(5))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.advance(to:) performed 100 actions at 3.0 seconds (runLimit) "
                                     + "without the clock moving"), "\(message)")
    }

    /// Many actions at one instant are fine as long as they drain, and a limit counts per instant, not per advance.
    @Test func advanceRunsUpToRunLimitActionsAtEachInstant() {
        let scheduler = TestScheduler()
        scheduler.runLimit = 10
        let ran = Locked(0)
        for second in 1...3 {
            for _ in 0..<10 {
                scheduler.schedule(after: .seconds(Int64(second))) { ran.withLock { $0 += 1 } }
            }
        }
        scheduler.advance(by: .seconds(3))
        #expect(ran.value == 30)
    }

    /// At one instant: an action cancels a later one due then, and schedules more work at that instant and "earlier"
    /// (a negative delay): the cancelled one never runs, and the new work runs after what was already due, in
    /// scheduling order.
    @Test func workCancelledAndAddedFromInsideAnActionAtTheSameInstant() {
        let scheduler = TestScheduler()
        let log = Recorder<String>(scheduler: scheduler)
        let doomed = Locked<(any CancelToken)?>(nil)
        scheduler.schedule(after: .seconds(1)) {
            log.record("a")
            doomed.value?.cancel()
            scheduler.schedule { log.record("d") }
            scheduler.schedule(after: .seconds(-3)) { log.record("e") }
        }
        doomed.withLock { $0 = scheduler.schedule(after: .seconds(1)) { log.record("cancelled") } }
        scheduler.schedule(after: .seconds(1)) { log.record("c") }
        scheduler.advance(by: .seconds(1))
        #expect(log.values == ["a", "c", "d", "e"])
        #expect(log.events.allSatisfy { $0.time == .seconds(1) })
        #expect(scheduler.pendingCount == 0)
    }

    /// Cancelling most of the queue frees each cancelled action's captures at once and sweeps their slots out; what
    /// is left still runs by due time, ties in scheduling order.
    @Test func cancellingMostOfTheQueueKeepsTheRestInOrder() {
        final class Capture: Sendable {}
        let scheduler = TestScheduler()
        let log = Recorder<Int>(scheduler: scheduler)
        var tokens: [any CancelToken] = []
        var captures: [Int: Capture] = [:]
        weak var cancelledCapture: Capture?
        for index in 0..<300 {
            let capture = Capture()
            captures[index] = capture
            if index == 1 { cancelledCapture = capture }
            tokens.append(scheduler.schedule(after: .seconds(Int64(300 - index) / 10)) {
                withExtendedLifetime(capture) { log.record(index) }
            })
        }
        captures.removeAll()
        let kept = Set(stride(from: 0, to: 300, by: 6))
        for (index, token) in tokens.enumerated() where !kept.contains(index) {
            token.cancel()
        }
        #expect(cancelledCapture == nil)
        #expect(scheduler.pendingCount == kept.count)

        scheduler.run()
        let expected = kept.sorted { ((300 - $0) / 10, $0) < ((300 - $1) / 10, $1) }
        #expect(log.values == expected)
    }
}
