import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// The `onMainActor…` handlers on a test's main-actor scheduler (a failure comes from an asynchronous stage, so
/// `onMainActorFailure(on:_:)` shares the wrapper tested here and its `.main` form is tested in MainActorHandlerTests): each outcome is on the main actor as soon as
/// `advance` returns, with no `Task.yield()` and no waiting.
@Suite("Main actor: a plumber's handlers on TestScheduler.mainActor")
@MainActor
struct MainActorHandlerTestClockTests {
    final class Outcomes {
        var lines: [String] = []
    }

    @Test func outputsAndBlockedPacketsArriveInsideAdvance() {
        let scheduler = TestScheduler()
        let outcomes = Outcomes()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("Even") { (packet: Number, next) in
                if packet.value.isMultiple(of: 2) { next(packet) }
            })
            .onMainActorOutput(on: scheduler.mainActor) { packet in outcomes.lines.append("output \(packet.value)") }
            .onMainActorBlocked(on: scheduler.mainActor) { packet, stage in
                outcomes.lines.append("blocked \(packet.value) at \(stage.name)")
            }
        _ = port.emit(Number(2), portNumber: 0)
        _ = port.emit(Number(3), portNumber: 0)
        #expect(outcomes.lines.isEmpty, "enqueued on the clock, never run inline")
        scheduler.advance()
        #expect(outcomes.lines == ["output 2", "blocked 3 at Even"])
        _ = plumber
    }
}
