import Dispatch
import RipplePipeline
import RippleTesting
import Testing

@Suite("Stress", .timeLimit(.minutes(10)))
struct StressTests {
    /// 8 threads emit through one plumber whose stages block, defer to other threads, fan out nothing, and fail
    /// asynchronously; every packet must end exactly once in one of the three outcomes.
    @Test(.tags(.stress)) func eightThreadsEveryPacketAccountedFor() async {
        let perThread = 2_000
        let threads = 8
        let sent = perThread * threads
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let hop = DispatchQueue(label: "hop", attributes: .concurrent)
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("DropSevens") { (packet: Number, next) in
                if packet.value % 7 != 0 { next(packet) }
            })
            .addPipeline(ClosureStage("Hop") { (packet: Number, next) in
                // Every third packet continues later, on another thread; every eleventh kept and dropped there.
                if packet.value % 3 == 0 {
                    hop.async { if packet.value % 11 != 0 { next(packet) } }
                } else {
                    next(packet)
                }
            })
            .addPipeline(AsyncClosureStage("FailFives") { (packet: Number) in
                if packet.value % 5 == 0 { throw StageError(reason: "five") }
                return packet
            })
            .addPipeline(Mark("end"))
        log.attach(to: plumber)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                port.emit(Number(thread * perThread + index), portNumber: thread)
            }
        }
        await log.tally.wait(for: sent)

        let outputs = log.outputs
        let blocked = log.blocked
        let failures = log.failures
        #expect(outputs.count + blocked.count + failures.count == sent)
        #expect(plumber.unhandled.total == 0)

        // Each value ends exactly once, in the outcome its value decides.
        var expectedOutputs = 0, expectedBlocked = 0, expectedFailures = 0
        for value in 0..<sent {
            if value % 7 == 0 || (value % 3 == 0 && value % 11 == 0) {
                expectedBlocked += 1
            } else if value % 5 == 0 {
                expectedFailures += 1
            } else {
                expectedOutputs += 1
            }
        }
        #expect(outputs.count == expectedOutputs)
        #expect(blocked.count == expectedBlocked)
        #expect(failures.count == expectedFailures)
        #expect(Set(outputs.map(\.value)).count == outputs.count)
        #expect(Set(blocked.map(\.0.value)).count == blocked.count)
        #expect(outputs.allSatisfy { $0.path == ["end"] && $0.portNumber == $0.value / perThread })
    }

    /// Many tasks awaiting `process` on one plumber at once each get their own packet's outcome back.
    @Test(.tags(.stress)) func concurrentProcessCallsGetTheirOwnResults() async {
        let plumber = Plumber<Number>()
            .addPipeline(ClosureStage("Even") { (packet: Number, next) in
                if packet.value.isMultiple(of: 2) { next(packet) }
            })
            .addPipeline(AsyncClosureStage("Async") { $0 })
        let results = await withTaskGroup(of: (Int, PipelineResult<Number>).self) { group in
            for value in 0..<2_000 {
                group.addTask { (value, await plumber.process(Number(value), portNumber: 1)) }
            }
            var collected: [(Int, PipelineResult<Number>)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 2_000)
        for (value, result) in results {
            if value.isMultiple(of: 2) {
                #expect(result.output?.value == value)
            } else {
                #expect(result.stoppingStage?.name == "Even")
            }
        }
    }
}
