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
}
