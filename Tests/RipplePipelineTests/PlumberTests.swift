import Dispatch
import RipplePipeline
import RippleTesting
import Testing

@Suite("Plumber mechanics", .timeLimit(.minutes(10)))
struct PlumberTests {
    @Test func stagesRunInTheOrderTheyWereAdded() async {
        let plumber = Plumber<Number>()
            .addPipeline(Mark("a"))
            .addPipeline(Mark("b"))
            .addPipeline(Mark("c"))
        let result = await plumber.process(Number(1), portNumber: 1)
        #expect(result.output?.path == ["a", "b", "c"])
        #expect(plumber.stages.map(\.name) == ["a", "b", "c"])
        #expect(plumber.stages.map(\.index) == [0, 1, 2])
    }

    @Test func blockingStageStopsThePacketAndIsNamed() async throws {
        let later = Recorder<Int>()
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(Wall())
            .addPipeline(ClosureStage("after") { (packet: Number, next) in
                later.record(packet.value)
                next(packet)
            })
        log.attach(to: plumber)

        port.emit(Number(5), portNumber: 3)

        // Synchronous stages report synchronously.
        #expect(log.outputs.isEmpty)
        #expect(later.values.isEmpty)
        let (packet, stage) = try #require(log.blocked.first)
        #expect(log.blocked.count == 1)
        #expect(stage == StageInfo(index: 1, name: "Wall"))
        #expect(packet.path == ["a"])
        #expect(packet.portNumber == 3)
    }

    @Test func throwingAsyncStageReachesOnFailure() async throws {
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(AsyncClosureStage("Fetch") { (packet: Number) in
                throw StageError(reason: "offline \(packet.value)")
            })
            .addPipeline(Mark("never"))
        log.attach(to: plumber)

        port.emit(Number(9), portNumber: 1)
        await log.tally.wait(for: 1)

        let (packet, stage, error) = try #require(log.failures.first)
        #expect(stage == StageInfo(index: 1, name: "Fetch"))
        #expect(packet.path == ["a"])
        #expect(error as? StageError == StageError(reason: "offline 9"))
        #expect(log.outputs.isEmpty)

        let result = await plumber.process(Number(2), portNumber: 1)
        guard case .failed(_, let failedStage, let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failedStage.name == "Fetch")
        #expect(failure as? StageError == StageError(reason: "offline 2"))
    }

    @Test func asyncStageReturningNilBlocks() async {
        let plumber = Plumber<Number>()
            .addPipeline(AsyncClosureStage("Gate") { (packet: Number) in packet.value > 0 ? packet : nil })
        #expect(await plumber.process(Number(1), portNumber: 0).output?.value == 1)
        let result = await plumber.process(Number(-1), portNumber: 0)
        #expect(result.stoppingStage == StageInfo(index: 0, name: "Gate"))
        #expect(result.output == nil)
    }

    @Test func stageCanPassANewPacket() async {
        let plumber = Plumber<Number>()
            .addPipeline(ClosureStage("Replace") { (packet: Number, next) in
                var fresh = Number(packet.value * 10, portNumber: packet.portNumber)
                fresh.path = ["fresh"]
                next(fresh)
            })
            .addPipeline(Mark("b"))
        let result = await plumber.process(Number(4), portNumber: 8)
        #expect(result.output?.value == 40)
        #expect(result.output?.path == ["fresh", "b"])
        #expect(result.output?.portNumber == 8)
    }

    @Test func callingNextTwiceFansOut() async {
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("Twice") { (packet: Number, next) in
                next(packet)
                var second = packet
                second.value += 1
                next(second)
            })
            .addPipeline(Mark("b"))
        log.attach(to: plumber)

        port.emit(Number(1), portNumber: 0)

        #expect(log.outputs.map(\.value) == [1, 2])
        #expect(log.outputs.map(\.path) == [["b"], ["b"]])
        #expect(log.blocked.isEmpty)

        // process returns the first branch; the second still reaches the handler.
        let result = await plumber.process(Number(10), portNumber: 0)
        #expect(result.output?.value == 10)
        #expect(log.outputs.map(\.value) == [1, 2, 10, 11])
    }

    @Test func nextCalledLaterOnAnotherThreadContinuesThere() async throws {
        let log = OutcomeLog<Number>()
        let threads = Recorder<String>()
        let port = NumberPort()
        let queue = namedQueue("later")
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("Defer") { (packet: Number, next) in
                queue.async { next(packet) }
            })
            .addPipeline(ClosureStage("Where") { (packet: Number, next) in
                threads.record(DispatchQueue.getSpecific(key: queueName) ?? "emitting thread")
                next(packet)
            })
        log.attach(to: plumber)

        port.emit(Number(3), portNumber: 0)
        await log.tally.wait(for: 1)

        #expect(log.outputs.map(\.value) == [3])
        #expect(log.blocked.isEmpty)
        #expect(threads.values == ["later"])
    }

    @Test func keptNextDroppedWithoutACallReportsTheBlockWhenFreed() async throws {
        let log = OutcomeLog<Number>()
        let kept = Recorder<Next<Number>>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage("Keeper") { (_: Number, next) in kept.record(next) })
        log.attach(to: plumber)

        port.emit(Number(1), portNumber: 0)
        #expect(log.entries.count == 0)     // kept, so not blocked yet
        #expect(kept.values.first?.stage == StageInfo(index: 1, name: "Keeper"))

        kept.reset()                        // the last copy goes away uncalled
        #expect(log.blocked.map(\.1) == [StageInfo(index: 1, name: "Keeper")])
        #expect(log.blocked.first?.0.path == ["a"])
    }

    @Test func twoPortsWithDifferentNumbersShareOneChain() async {
        let log = OutcomeLog<Number>()
        let clicks = NumberPort()
        let pushes = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(clicks)
            .addPort(pushes)
            .addPipeline(ClosureStage("Route") { (packet: Number, next) in
                var packet = packet
                packet.path.append(packet.portNumber == 100 ? "click" : "push")
                if packet.portNumber != 300 { next(packet) }    // port 300 is not allowed through
            })
            .addPipeline(Mark("end"))
        log.attach(to: plumber)

        clicks.emit(Number(1), portNumber: 100)
        pushes.emit(Number(2), portNumber: 200)
        pushes.emit(Number(3), portNumber: 300)

        #expect(log.outputs.map(\.portNumber) == [100, 200])
        #expect(log.outputs.map(\.path) == [["click", "end"], ["push", "end"]])
        #expect(log.blocked.map(\.0.portNumber) == [300])
        #expect(plumber.portCount == 2)
    }

    @Test func portAddedAfterTheOutputWasSetIsWired() {
        let log = OutcomeLog<Number>()
        let plumber = Plumber<Number>().addPipeline(Mark("a"))
        log.attach(to: plumber)

        let port = NumberPort()
        #expect(!port.isWired)
        #expect(port.emit(Number(0), portNumber: 1) == false)   // nobody listening: the caller is told

        plumber.addPort(port)
        #expect(port.isWired)
        #expect(port.emit(Number(1), portNumber: 7))
        #expect(log.outputs.map(\.portNumber) == [7])

        plumber.addPort(port)                                     // wired once
        port.emit(Number(2), portNumber: 7)
        #expect(log.outputs.map(\.value) == [1, 2])
    }

    @Test func portFeedsEveryPlumberItWasAddedTo() {
        let first = OutcomeLog<Number>()
        let second = OutcomeLog<Number>()
        let port = NumberPort()
        let one = Plumber<Number>().addPort(port).addPipeline(Mark("one"))
        let two = Plumber<Number>().addPort(port).addPipeline(Mark("two"))
        first.attach(to: one)
        second.attach(to: two)

        port.emit(Number(1), portNumber: 5)
        #expect(first.outputs.map(\.path) == [["one"]])
        #expect(second.outputs.map(\.path) == [["two"]])
    }

    @Test func noStagesGoesStraightToTheOutput() async {
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        log.attach(to: plumber)

        port.emit(Number(6), portNumber: 2)
        #expect(log.outputs == [Number(6, portNumber: 2)])
        #expect(await plumber.process(Number(7), portNumber: 3).output == Number(7, portNumber: 3))
    }

    @Test func sameStageTwiceInOnePlumberAndInTwoPlumbers() async {
        let shared = Mark("x")
        let one = Plumber<Number>().addPipeline(shared).addPipeline(Mark("y")).addPipeline(shared)
        let two = Plumber<Number>().addPipeline(shared)

        #expect(await one.process(Number(1), portNumber: 0).output?.path == ["x", "y", "x"])
        #expect(await two.process(Number(1), portNumber: 0).output?.path == ["x"])
        #expect(one.stages == [StageInfo(index: 0, name: "x"), StageInfo(index: 1, name: "y"),
                               StageInfo(index: 2, name: "x")])

        // The index tells two uses of one stage apart when it blocks.
        let gate = ClosureStage("Gate") { (packet: Number, next) in if packet.path.isEmpty { next(packet) } }
        let gated = Plumber<Number>().addPipeline(gate).addPipeline(Mark("y")).addPipeline(gate)
        #expect(await gated.process(Number(1), portNumber: 0).stoppingStage == StageInfo(index: 2, name: "Gate"))
    }

    @Test func withoutHandlersStagesStillRunAndOutcomesAreCounted() async {
        let seen = Recorder<Int>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("Odd") { (packet: Number, next) in
                seen.record(packet.value)
                if packet.value % 2 == 1 { next(packet) }
            })
            .addPipeline(AsyncClosureStage("Fail") { (packet: Number) in
                if packet.value == 3 { throw StageError(reason: "three") }
                return packet
            })

        port.emit(Number(1), portNumber: 0)
        port.emit(Number(2), portNumber: 0)
        port.emit(Number(3), portNumber: 0)
        #expect(seen.values == [1, 2, 3])
        #expect(plumber.unhandled.blocked == 1)

        // With no handler there is nothing to wait on but the counters: yield until the two asynchronous flights
        // (1 passes, 3 throws) are counted. The suite's time limit bounds a failure here.
        var total = plumber.unhandled.total
        while total < 3 {
            await Task.yield()
            total = plumber.unhandled.total
        }
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 1, blocked: 1, failures: 1))

        // A process caller receives the outcome, so it does not count as unhandled.
        _ = await plumber.process(Number(5), portNumber: 0)
        #expect(plumber.unhandled.total == 3)
    }

    /// A `process` caller takes the first outcome of its packet; the other outcomes of a fan-out reached no handler
    /// and were not counted either: lost without a trace.
    @Test func aFanOutsLaterOutcomesOfAProcessCallAreCountedWithoutAHandler() async {
        let plumber = Plumber<Number>()
            .addPipeline(ClosureStage("Twice") { (packet: Number, next) in
                next(packet)
                next(Number(packet.value + 1))
            })
            .addPipeline(ClosureStage("EvenOnly") { (packet: Number, next) in
                if packet.value.isMultiple(of: 2) { next(packet) }
            })
        let first = await plumber.process(Number(2), portNumber: 0)
        #expect(first.output?.value == 2)
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 0, blocked: 1, failures: 0))
        let second = await plumber.process(Number(1), portNumber: 0)
        #expect(second.output == nil)
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 1, blocked: 1, failures: 0))

        // With handlers set, they hear every outcome and nothing counts.
        let log = OutcomeLog<Number>()
        log.attach(to: plumber)
        _ = await plumber.process(Number(4), portNumber: 0)
        #expect(log.outputs.map(\.value) == [4])
        #expect(log.blocked.map(\.0.value) == [5])
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 1, blocked: 1, failures: 0))
    }

    @Test func referencePacketsAreStampedInPlace() async {
        final class Box: Packet, @unchecked Sendable {
            // Only written before it is handed to the plumber and by the port, on one thread, in this test.
            var portNumber = 0
            var notes: [String] = []
        }
        let box = Box()
        let port = PacketPort<Box>()
        let outputs = Recorder<Int>()
        let plumber = Plumber<Box>().addPort(port)
            .addPipeline(ClosureStage("Note") { (packet: Box, next) in
                packet.notes.append("seen")
                next(packet)
            })
            .onOutput { outputs.record($0.portNumber) }
        port.emit(box, portNumber: 12)
        #expect(box.portNumber == 12)
        #expect(box.notes == ["seen"])
        #expect(outputs.values == [12])
        _ = plumber
    }

    @Test func cancellingProcessCancelsTheAsyncStage() async {
        let started = Tally()
        let plumber = Plumber<Number>()
            .addPipeline(AsyncClosureStage("Slow") { (packet: Number) in
                started.hit()
                // Waits until cancelled; `AsyncStream` never yields here, so only cancellation ends the loop.
                let (stream, _) = AsyncStream.makeStream(of: Int.self)
                for await _ in stream {}
                try Task.checkCancellation()
                return packet
            })
        let task = Task { await plumber.process(Number(1), portNumber: 0) }
        await started.wait(for: 1)
        task.cancel()
        let result = await task.value
        guard case .failed(_, let stage, let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(stage.name == "Slow")
        #expect(error is CancellationError)
    }
}

/// Marks the queues a test creates, so a stage can tell which queue it runs on.
let queueName = DispatchSpecificKey<String>()

func namedQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: queueName, value: name)
    return queue
}

@Suite("Re-entrancy and reconfiguration", .timeLimit(.minutes(10)))
struct ReentrancyTests {
    @Test func handlerMayEmitThroughTheSamePlumber() {
        let port = NumberPort()
        let outputs = Recorder<Int>()
        let plumber = Plumber<Number>().addPort(port).addPipeline(Mark("a"))
        plumber.onOutput { packet in
            outputs.record(packet.value)
            if packet.value < 3 { port.emit(Number(packet.value + 1), portNumber: 0) }
        }
        port.emit(Number(0), portNumber: 0)
        #expect(outputs.values == [0, 1, 2, 3])
    }

    @Test func stageMayReconfigureThePlumberWhileAPacketRuns() async {
        let plumber = Plumber<Number>()
        plumber
            .addPipeline(ClosureStage("Grow") { [weak plumber] (packet: Number, next) in
                plumber?.addPipeline(Mark("added"))
                next(packet)
            })
            .addPipeline(Mark("b"))
        // The running packet keeps the chain it entered with; the next packet sees the added stage.
        #expect(await plumber.process(Number(1), portNumber: 0).output?.path == ["b"])
        #expect(await plumber.process(Number(2), portNumber: 0).output?.path == ["b", "added"])
        #expect(plumber.stages.count == 4)
    }

    @Test func kindsOfStagesMixInOneChain() async {
        let queue = DispatchQueue(label: "mix")
        let plumber = Plumber<Number>()
            .addPipeline(Mark("sync"))
            .addPipeline(AsyncClosureStage("async") { (packet: Number) in
                var packet = packet
                packet.path.append("async")
                return packet
            })
            .addPipeline(ClosureStage("late") { (packet: Number, next) in
                queue.async {
                    var packet = packet
                    packet.path.append("late")
                    next(packet)
                }
            })
            .addPipeline(Mark("end"))
        #expect(await plumber.process(Number(1), portNumber: 0).output?.path == ["sync", "async", "late", "end"])
    }
}
