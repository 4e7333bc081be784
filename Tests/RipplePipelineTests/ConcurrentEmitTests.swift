import Dispatch
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// Several threads emitting through one plumber at once, with only synchronous stages: the pattern of the umbrella's
/// `PlumberSignalTests.concurrentOutputsReachEverySubscriberExactlyOnce`, which crashed an earlier pooled `Next`.
@Suite("Concurrent emits", .timeLimit(.minutes(10)))
struct ConcurrentEmitTests {
    static let threads = 8
    static let perThread = 500
    static var sent: Int { threads * perThread }

    /// Emits `threads × perThread` packets numbered 0..<sent, `perThread` from each of `threads` threads at once.
    static func emitFromEveryThread(_ port: NumberPort) {
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                port.emit(Number(thread * perThread + index), portNumber: thread)
            }
        }
    }

    @Test(.tags(.stress)) func noStagesEveryPacketReachesEveryListenerOnce() {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        // Set twice before emitting, as `outputSignal()` called twice does: the first chain is replaced.
        plumber.onOutput { first.record($0.value) }
        plumber.onOutput { packet in
            first.record(packet.value)
            second.record(packet.value)
        }

        Self.emitFromEveryThread(port)

        #expect(first.count == Self.sent)
        #expect(Set(first.values) == Set(0..<Self.sent))
        #expect(second.count == Self.sent)
        #expect(Set(second.values) == Set(0..<Self.sent))
        #expect(plumber.unhandled.total == 0)
    }

    @Test(.tags(.stress)) func synchronousStagesAccountForEveryPacket() {
        let port = NumberPort()
        let outputs = Recorder<Number>()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage("DropSevens") { (packet: Number, next) in
                if packet.value % 7 != 0 { next(packet) }
            })
            .addPipeline(Mark("b"))
            .addPipeline(Mark("c"))
            .onOutput { outputs.record($0) }
        // No blocked handler: blocks are counted.

        Self.emitFromEveryThread(port)

        let passed = (0..<Self.sent).filter { $0 % 7 != 0 }
        let values = outputs.values
        #expect(values.count == passed.count)
        #expect(Set(values.map(\.value)) == Set(passed))
        #expect(values.allSatisfy { $0.path == ["a", "b", "c"] && $0.portNumber == $0.value / Self.perThread })
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 0, blocked: Self.sent - passed.count, failures: 0))
    }

    @Test(.tags(.stress)) func handlersReplacedWhileThreadsEmit() {
        let port = NumberPort()
        let outputs = Recorder<Int>()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage("Even") { (packet: Number, next) in
                if packet.value.isMultiple(of: 2) { next(packet) }
            })
            .onOutput { outputs.record($0.value) }

        // One more thread keeps rebuilding the chain (an equivalent output handler) while the others emit, so chains
        // are freed while packets run through them.
        let done = Locked(false)
        let reconfigured = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !done.value { plumber.onOutput { outputs.record($0.value) } }
            reconfigured.signal()
        }
        Self.emitFromEveryThread(port)
        done.withLock { $0 = true }
        reconfigured.wait()

        #expect(outputs.count == Self.sent / 2)
        #expect(Set(outputs.values) == Set((0..<Self.sent).filter { $0.isMultiple(of: 2) }))
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 0, blocked: Self.sent / 2, failures: 0))
    }

    /// A stage hands `next` to another thread, which drops it uncalled just as the stage returns: the last release
    /// races the stage's return, so the box escapes (still referenced there) or settles (already let go). Release
    /// builds once freed the box between the two, losing the block report (the awaiting test hung) or crashing.
    @Test(.tags(.stress)) func nextDroppedOnAnotherThreadAsTheStageReturns() async {
        await Self.runThroughAHelper("DropsElsewhere") { _ in false }
    }

    /// A stage hands `next` to another thread and waits until it was called or dropped there, so the continuation
    /// is used off the driving thread while `receive` is still running, and is often back to one owner when it
    /// returns. Values ≡ 0 (mod 3) pass in the stage, ≡ 1 from the helper; ≡ 2 are dropped there, uncalled.
    @Test(.tags(.stress)) func nextUsedOnAnotherThreadDuringReceive() async {
        await Self.runThroughAHelper("Elsewhere") { $0 % 3 == 0 ? nil : $0 % 3 == 1 }
    }

    /// Emits from every thread through `a`, a stage named `name` that hands `next` to a helper thread and waits for
    /// it, and `b`; checks that every packet had one outcome. `route(value)`: nil calls `next` in the stage, true
    /// calls it on the helper, false drops it there uncalled.
    static func runThroughAHelper(_ name: String, route: @escaping @Sendable (Int) -> Bool?) async {
        let port = NumberPort()
        let log = OutcomeLog<Number>()
        let helper = DispatchQueue(label: "helper", attributes: .concurrent)
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage(name) { (packet: Number, next) in
                guard let onHelper = route(packet.value) else { return next(packet) }
                let finished = DispatchSemaphore(value: 0)
                helper.async {
                    if onHelper { next(packet) }
                    finished.signal()
                }
                finished.wait()
            })
            .addPipeline(Mark("b"))
        log.attach(to: plumber)

        emitFromEveryThread(port)
        // The helper releases its copy of `next` just after signalling, so a drop may be reported a moment later.
        await log.tally.wait(for: sent)

        let passes = { (value: Int) in route(value) != false }
        let blocked = log.blocked
        let outputs = log.outputs
        #expect(outputs.count + blocked.count == sent)
        #expect(Set(outputs.map(\.value)) == Set((0..<sent).filter(passes)))
        #expect(Set(blocked.map(\.0.value)) == Set((0..<sent).filter { !passes($0) }))
        #expect(blocked.allSatisfy { $0.1 == StageInfo(index: 1, name: name) && $0.0.path == ["a"] })
        #expect(outputs.allSatisfy { $0.path == ["a", "b"] })
        #expect(plumber.unhandled.total == 0)
    }
}
