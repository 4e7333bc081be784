import RipplePipeline
import RippleTesting
import Testing

@Suite("runSerially", .timeLimit(.minutes(10)))
struct RunSeriallyTests {
    @Test func runsEveryStageInOrder() async {
        let result = await runSerially([Mark("a"), Mark("b"), Mark("c")], Number(1, portNumber: 4))
        #expect(result.output?.path == ["a", "b", "c"])
        #expect(result.output?.portNumber == 4)
    }

    @Test func stopsAtTheFirstBlock() async {
        let reached = Recorder<String>()
        func spy(_ name: String, passes: Bool) -> ClosureStage<Number> {
            ClosureStage(name) { packet, next in
                reached.record(name)
                if passes { next(packet) }
            }
        }
        let result = await runSerially([spy("a", passes: true), spy("b", passes: false), spy("c", passes: false),
                                        spy("d", passes: true)], Number(1))
        #expect(result.stoppingStage == StageInfo(index: 1, name: "b"))
        #expect(result.output == nil)
        #expect(reached.values == ["a", "b"])
    }

    @Test func noStagesReturnsThePacket() async {
        #expect(await runSerially([], Number(3)).output == Number(3))
    }
}
