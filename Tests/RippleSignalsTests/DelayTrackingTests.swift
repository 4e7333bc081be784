// Invariants under test: `delay` keeps a token for each event only while that event is still waiting, whatever the
// scheduler's token says after the work ran. A queue scheduler's work can run (on another thread) before
// `schedule(after:)` has even returned its token, and a `DispatchWorkItem` that ran does not report itself cancelled:
// `delay` then kept that token, and the event and downstream its work captured, until the subscription ended — one
// per event, for as long as the subscription ran.
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("delay: tracking of scheduled events")
struct DelayTrackingTests {
    /// A token that counts the live ones and, like a `DispatchWorkItem`'s, is not cancelled after its work ran.
    final class CountedToken: CancelToken, @unchecked Sendable {
        let live: Locked<Int>
        let cancelled = Locked(false)

        init(live: Locked<Int>) {
            self.live = live
            live.withLock { $0 += 1 }
        }

        deinit {
            live.withLock { $0 -= 1 }
        }

        func cancel() { cancelled.withLock { $0 = true } }
        var isCancelled: Bool { cancelled.withLock { $0 } }
    }

    /// A scheduler whose work has always finished by the time `schedule` returns: what a queue scheduler does when
    /// its thread runs the work before the scheduling thread gets the token back.
    struct FinishedFirstScheduler: Scheduling {
        let live: Locked<Int>
        var now: Duration { .zero }

        func schedule(_ action: @escaping @Sendable () -> Void) -> any CancelToken {
            schedule(after: .zero, action)
        }

        func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any CancelToken {
            action()
            return CountedToken(live: live)
        }
    }

    @Test("work that ran before its token came back is not kept: 1,000 values leave no token behind")
    func finishedWorkIsNotKept() {
        let live = Locked(0)
        let source = ManualSource<Int, Never>()
        let received = Recorder<Int>()
        let subscription = source.signal.delay(.seconds(1), on: FinishedFirstScheduler(live: live))
            .subscribe(value: { received.record($0) })
        for value in 0..<1_000 { source.send(value) }
        #expect(received.values == Array(0..<1_000))
        #expect(live.withLock { $0 } == 0)  // was 1,000: every token kept until disposal
        source.sendComplete()
        subscription.dispose()
        #expect(live.withLock { $0 } == 0)
    }

    @Test("work still waiting is cancelled on disposal, and what ran is not touched")
    func pendingWorkIsCancelledOnDisposal() {
        let scheduler = TestScheduler()
        let source = ManualSource<Int, Never>()
        let received = Recorder<Int>()
        let subscription = source.signal.delay(.seconds(1), on: scheduler).subscribe(value: { received.record($0) })
        source.send(1)
        scheduler.advance(by: .seconds(1))
        source.send(2)
        source.send(3)
        #expect(scheduler.pendingCount == 2)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(received.values == [1])
    }
}
