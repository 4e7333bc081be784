import Dispatch
import RipplePipeline
import RippleTesting
import Testing

/// Records which stages a packet reached; passes it on or blocks it.
private func spy(_ name: String, passes: Bool, into reached: Recorder<String>) -> ClosureStage<Number> {
    ClosureStage(name) { packet, next in
        reached.record(name)
        if passes { next(packet) }
    }
}

@Suite("runSerially", .timeLimit(.minutes(10)))
struct RunSeriallyTests {
    @Test func runsEveryStageInOrder() async {
        let result = await runSerially([Mark("a"), Mark("b"), Mark("c")], Number(1, portNumber: 4))
        #expect(result.output?.path == ["a", "b", "c"])
        #expect(result.output?.portNumber == 4)
    }

    @Test func stopsAtTheFirstBlock() async {
        let reached = Recorder<String>()
        let result = await runSerially([spy("a", passes: true, into: reached), spy("b", passes: false, into: reached),
                                        spy("c", passes: false, into: reached), spy("d", passes: true, into: reached)],
                                       Number(1))
        #expect(result.stoppingStage == StageInfo(index: 1, name: "b"))
        #expect(result.output == nil)
        #expect(reached.values == ["a", "b"])
    }

    @Test func noStagesReturnsThePacket() async {
        #expect(await runSerially([], Number(3)).output == Number(3))
    }

    @Test func waitsForAStageThatCallsNextLater() async {
        let later = ClosureStage<Number>("Later") { packet, next in
            DispatchQueue.global().async { next(packet) }
        }
        let result = await runSerially([Mark("a"), later, Mark("b")], Number(1))
        #expect(result.output?.path == ["a", "b"])
    }
}

/// The synchronous form: called from synchronous code, no `await`, the outcome ready when it returns.
@Suite("runSerially, synchronous", .timeLimit(.minutes(10)))
struct SynchronousRunSeriallyTests {
    @Test func runsEveryStageInOrderOnTheCallingThread() {
        let result = runSerially([Mark("a"), Mark("b"), Mark("c")], Number(1, portNumber: 4))
        #expect(result.output?.path == ["a", "b", "c"])
        #expect(result.output?.portNumber == 4)
    }

    @Test func stopsAtTheFirstBlock() {
        let reached = Recorder<String>()
        let result = runSerially([spy("a", passes: true, into: reached), spy("b", passes: false, into: reached),
                                  spy("c", passes: true, into: reached)], Number(1))
        #expect(result.stoppingStage == StageInfo(index: 1, name: "b"))
        #expect(result.output == nil)
        #expect(reached.values == ["a", "b"])
    }

    @Test func noStagesReturnsThePacket() {
        #expect(runSerially([], Number(3)).output == Number(3))
    }

    @Test func givesTheSameResultsAsTheAsyncForm() async {
        let reached = Recorder<String>()
        let chains: [[any PipelineStage<Number>]] = [
            [Mark("a"), Mark("b")], [Mark("a"), spy("wall", passes: false, into: reached), Mark("b")], [Wall()], [],
        ]
        for stages in chains {
            let synchronous = synchronousRun(stages, Number(2))
            let awaited = await runSerially(stages, Number(2))
            #expect(synchronous.output == awaited.output)
            #expect(synchronous.stoppingStage == awaited.stoppingStage)
        }
    }

    @Test func aFanOutReturnsTheFirstOutcome() {
        let twice = ClosureStage<Number>("Twice") { packet, next in
            var first = packet
            first.value = 10
            next(first)
            var second = packet
            second.value = 20
            next(second)
        }
        #expect(runSerially([twice, Mark("a")], Number(1)).output?.value == 10)
    }

    @Test func aStageThatCallsNextOnAnotherThreadBeforeReturningIsSynchronousEnough() {
        let elsewhere = ClosureStage<Number>("Elsewhere") { packet, next in
            DispatchQueue.global().sync { next(packet) }
        }
        #expect(runSerially([elsewhere, Mark("a")], Number(1)).output?.path == ["a"])
    }

    @Test func aStageThatKeepsNextStopsWithAMessageNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kept = Recorder<Next<Number>>()
            let keeper = ClosureStage<Number>("Keeper") { _, next in kept.record(next) }
            _ = runSerially([Mark("a"), keeper], Number(1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("runSerially(_:_:) without await needs stages that pass or drop `next` before "
                                 + "`receive` returns; Keeper (stage 1) kept it — use `await runSerially(_:_:)`"))
    }

    /// Calls the synchronous form from inside an `async` test, where Swift would otherwise pick the `async` one.
    private func synchronousRun(_ stages: [any PipelineStage<Number>], _ packet: Number) -> PipelineResult<Number> {
        runSerially(stages, packet)
    }
}
