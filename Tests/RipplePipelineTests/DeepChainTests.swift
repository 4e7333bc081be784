import Dispatch
import Foundation
import RippleCore
import RipplePipeline
import Testing

/// Chains far deeper than a thread's stack allows stage by stage, on a thread with a 512 KiB stack (an iOS secondary
/// thread's): a debug build used ~2 KiB of stack per synchronous stage, so a few hundred stages died with SIGSEGV and
/// no message before the thread's drain (`DeepChainDrain.swift`).
@Suite("Deep chains on a small stack", .timeLimit(.minutes(10)))
struct DeepChainTests {
    /// Stage `i` checks that it is the next stage to run, adds 1 to the packet and passes it on.
    final class Order: @unchecked Sendable {
        private let state = Locked((next: 0, wrong: [Int]()))
        func reached(_ index: Int) {
            state.withLock { state in
                if state.next != index && state.wrong.count < 5 { state.wrong.append(index) }
                state.next = index + 1
            }
        }
        var next: Int { state.withLock { $0.next } }
        var wrong: [Int] { state.withLock { $0.wrong } }
    }

    static func counting(_ count: Int, into order: Order,
                         body: @escaping @Sendable (Int, Number, Next<Number>) -> Void = { _, packet, next in
                             next(Number(packet.value + 1))
                         }) -> [any PipelineStage<Number>] {
        (0..<count).map { index in
            ClosureStage<Number>("s\(index)") { packet, next in
                order.reached(index)
                body(index, packet, next)
            }
        }
    }

    @Test func aHundredThousandSynchronousStages() async {
        let order = Order()
        // A tenth under a sanitizer (each stage costs ~10× more there); the stack a run needs does not grow with it.
        let count = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil
            && ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil ? 100_000 : 10_000
        let stages = Self.counting(count, into: order)
        let output = await onSmallStackThread { runSerially(stages, Number(0)).output?.value }
        #expect(output == count)
        #expect(order.next == count)
        #expect(order.wrong == [])
    }

    @Test func aStageThatBlocksDeepInTheChainIsReported() async {
        let order = Order()
        let stages = Self.counting(50_000, into: order) { index, packet, next in
            if index != 40_000 { next(Number(packet.value + 1)) }
        }
        let stopped = await onSmallStackThread { runSerially(stages, Number(0)).stoppingStage }
        #expect(stopped == StageInfo(index: 40_000, name: "s40000"))
        #expect(order.next == 40_001)
        #expect(order.wrong == [])
    }

    /// Every 1,000th stage passes the packet on later, from another thread; the others synchronously.
    @Test func aDeepChainWithStagesThatContinueLater() async {
        let order = Order()
        let stages = Self.counting(20_000, into: order) { index, packet, next in
            let passed = Number(packet.value + 1)
            if index % 1_000 == 999 {
                DispatchQueue.global().async { next(passed) }
            } else {
                next(passed)
            }
        }
        let result = await runSerially(stages, Number(0))
        #expect(result.output?.value == 20_000)
        #expect(order.wrong == [])
    }

    /// A packet emitted through a port runs in the port's frame (another entry into the chain): 2,000 stages.
    @Test func aPortsPacketThroughADeepChain() async {
        let order = Order()
        let port = NumberPort()
        let outputs = Locked<[Int]>([])
        let plumber = Plumber<Number>().addPort(port).onOutput { packet in outputs.withLock { $0.append(packet.value) } }
        for stage in Self.counting(2_000, into: order) { plumber.addPipeline(stage) }
        _ = await onSmallStackThread { port.emit(Number(0), portNumber: 0) }
        #expect(outputs.value == [2_000])
        #expect(order.wrong == [])
        withExtendedLifetime(plumber) {}
    }

    /// Past the first cut (stage 32), a stage's code after its synchronous `next` runs before the stages after the
    /// next cut, as if `next` had been called late; before it, after the rest of the chain (documented in
    /// ThePlumber).
    @Test func codeAfterNextDeepInTheChainRunsBeforeTheRestOfTheChain() {
        let events = Locked<[String]>([])
        let stages: [any PipelineStage<Number>] = (0..<100).map { index in
            ClosureStage<Number>("s\(index)") { packet, next in
                next(packet)
                if index == 5 || index == 60 { events.withLock { $0.append("after \(index)") } }
                if index == 61 || index == 99 { events.withLock { $0.append("ran \(index)") } }
            }
        }
        #expect(runSerially(stages, Number(0)).output != nil)
        // Stage 31's `next` (into stage 32, a cut) started the drain and ran stages 32–63 inside it; stages 64–95 and
        // 96–99 then ran from the drain, after the code that follows the `next`s of the stages before them (stage
        // 60's, here).
        // Stage 61 ran inside stage 60's `next` and returned first; then the drain ran the stages past the next cut.
        #expect(events.value == ["ran 61", "after 60", "ran 99", "after 5"])
    }
}

/// Runs `body` on a new thread with a 512 KiB stack and returns what it returned.
func onSmallStackThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}

/// `runSerially` called from a stage of a deep chain, past its first cut (the thread's drain is running), still
/// returns its own chain's outcome.
@Test("runSerially from a stage deep in another chain returns its outcome")
func runSeriallyFromADeepStage() {
    let inner: [any PipelineStage<Number>] = (0..<100).map { index in
        ClosureStage<Number>("inner\(index)") { packet, next in next(Number(packet.value + 1)) }
    }
    let innerOutputs = Locked<[Int?]>([])
    let outer: [any PipelineStage<Number>] = (0..<100).map { index in
        ClosureStage<Number>("outer\(index)") { packet, next in
            if index == 70 { innerOutputs.withLock { $0.append(runSerially(inner, Number(0)).output?.value) } }
            next(packet)
        }
    }
    #expect(runSerially(outer, Number(0)).output != nil)
    #expect(innerOutputs.value == [100])
}
