// Invariants under test: `deliver(on:)` and `delay` hand their events downstream in the order the source sent them,
// whatever order the scheduler runs its work in. `Scheduling` promises no order between two pieces of work (a
// `QueueScheduler` over a concurrent queue runs them on several threads), and each event used to be its own piece
// of work: run out of order, a completion overtook the values before it, which the completed subscriber dropped.
import Dispatch
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("deliver(on:) and delay on a scheduler that runs work out of order")
struct ScheduledOrderTests {
    @Test("deliver(on:): values, then completion, in the order sent", arguments: [false, true])
    func deliverOnKeepsOrder(_ failing: Bool) {
        checkOrder(failing: failing) { $0.deliver(on: $1) }
    }

    @Test("delay: values, then completion, in the order sent", arguments: [false, true])
    func delayKeepsOrder(_ failing: Bool) {
        checkOrder(failing: failing) { $0.delay(.seconds(1), on: $1) }
    }

    /// Sends 1, 2, 3 and a completion (or an error) through `apply` on a newest-first scheduler: the recorder must
    /// hear them in the order sent.
    private func checkOrder(failing: Bool,
                            _ apply: (Signal<Int, TestError>, NewestFirstScheduler) -> Signal<Int, TestError>) {
        let scheduler = NewestFirstScheduler()
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        apply(source.signal, scheduler).record(into: recorder)
        source.send(1)
        source.send(2)
        source.send(3)
        if failing { source.sendError(TestError(7)) } else { source.sendComplete() }
        scheduler.runNewestFirst()
        #expect(recorder.values == [.value(1), .value(2), .value(3), failing ? .error(7) : .complete])
    }

    /// The real case, on threads: each piece of work may run on its own thread, so the hand-off between them runs
    /// concurrently (for the thread sanitizer). Dispatch starts the blocks of a concurrent queue roughly in order,
    /// so this rarely caught the old overtaking on its own; the newest-first scheduler above pins it.
    @Test("on a concurrent queue: 2,000 values arrive, in order, one at a time, then the completion",
          .tags(.stress), arguments: ["deliver(on:)", "delay"])
    func concurrentQueue(_ operatorName: String) {
        let scheduler = QueueScheduler(DispatchQueue(label: "ScheduledOrderTests", attributes: .concurrent))
        let source = ManualSource<Int, Never>()
        let detector = OverlapDetector()
        let received = Recorder<Int>()
        let completed = DispatchSemaphore(value: 0)
        let signal = operatorName == "delay"
            ? source.signal.delay(.nanoseconds(1), on: scheduler) : source.signal.deliver(on: scheduler)
        let subscription = signal.subscribe(value: { value in
            detector.enter()
            received.record(value)
            detector.leave()
        }, complete: { completed.signal() })
        for value in 0..<2_000 { source.send(value) }
        source.sendComplete()
        // A wait for the completion (generous: it comes within milliseconds), not a sleep.
        #expect(completed.wait(timeout: .now() + 30) == .success)
        #expect(received.values == Array(0..<2_000))
        #expect(detector.overlaps == 0)
        subscription.dispose()
    }
}
