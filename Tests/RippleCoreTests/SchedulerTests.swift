import Dispatch
import RippleCore
import Testing

@Suite("Schedulers")
struct SchedulerTests {
    @Test func immediateRunsSynchronouslyEvenWithADelay() {
        let order = Locked([String]())
        let scheduler: some Scheduling = .immediate
        scheduler.schedule { order.withLock { $0.append("now") } }
        let token = scheduler.schedule(after: .seconds(60)) { order.withLock { $0.append("later") } }
        order.withLock { $0.append("after") }
        #expect(order.value == ["now", "later", "after"])
        #expect(token.isCancelled, "work that already ran cannot be cancelled any more")
    }

    @Test func queueSchedulerRunsOnItsQueueInOrder() async {
        let queue = DispatchQueue(label: "ripple.test.queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "test-queue")
        let scheduler: some Scheduling = .queue(queue)
        let seen = Locked([String]())
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<3 {
                scheduler.schedule {
                    seen.withLock { $0.append("\(index)@\(DispatchQueue.getSpecific(key: key) ?? "elsewhere")") }
                    if index == 2 { done.resume() }
                }
            }
        }
        #expect(seen.value == ["0@test-queue", "1@test-queue", "2@test-queue"])
    }

    /// `isCancelled` is also true once the work has ended on its own (`CancelToken`'s contract): a holder that asks
    /// it before cancelling, or keeps tokens only for work still pending (`delay`), can let a finished one go.
    @Test func queueSchedulerTokenReadsCancelledOnceItsWorkHasRun() {
        let queue = DispatchQueue(label: "ripple.test.token")
        let ran = DispatchSemaphore(value: 0)
        let scheduler: some Scheduling = .queue(queue)
        let tokens = [scheduler.schedule { ran.signal() }, scheduler.schedule(after: .zero) { ran.signal() }]
        ran.wait()
        ran.wait()
        // The work item is marked after its block returns: this barrier waits for both.
        queue.sync {}
        #expect(tokens.map(\.isCancelled) == [true, true])
        let pending = scheduler.schedule(after: .seconds(3_600)) {}
        #expect(!pending.isCancelled)
        pending.cancel()
        #expect(pending.isCancelled)
    }

    @Test func queueSchedulerCancelledWorkDoesNotRun() {
        let queue = DispatchQueue(label: "ripple.test.cancel")
        let ran = Locked(false)
        queue.suspend()
        let token = QueueScheduler(queue).schedule { ran.withLock { $0 = true } }
        token.cancel()
        #expect(token.isCancelled)
        queue.resume()
        queue.sync {}
        #expect(ran.value == false)
    }

    @Test func queueSchedulerRunsDelayedWorkEventually() async {
        let scheduler: some Scheduling = .queue(.global())
        let start = scheduler.now
        let end: Duration = await withCheckedContinuation { done in
            scheduler.schedule(after: .milliseconds(5)) { done.resume(returning: scheduler.now) }
        }
        #expect(end - start >= .milliseconds(5))
    }

    // On Linux the main queue is drained by Swift concurrency's main executor under `swift test`, which need not be
    // the process's first thread, so the check is "ran on the main queue", not `Thread.isMainThread`.
    @Test func mainSchedulerRunsOnTheMainQueue() async {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main-queue")
        let scheduler: some Scheduling = .main
        let queueName: String? = await withCheckedContinuation { done in
            scheduler.schedule { done.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(queueName == "main-queue")
    }
}
