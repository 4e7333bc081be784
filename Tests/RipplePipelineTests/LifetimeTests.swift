import Dispatch
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

@Suite("Lifetimes and leaks", .timeLimit(.minutes(10)))
struct LifetimeTests {
    @Test func plumberFreedWhileANextIsKeptDropsThePacket() {
        let log = OutcomeLog<Number>()
        let kept = Recorder<Next<Number>>()
        let port = NumberPort()
        weak var weakPlumber: Plumber<Number>?
        do {
            let plumber = Plumber<Number>()
                .addPort(port)
                .addPipeline(ClosureStage("Keeper") { (_: Number, next) in kept.record(next) })
                .addPipeline(Mark("after"))
            log.attach(to: plumber)
            weakPlumber = plumber
            port.emit(Number(1), portNumber: 0)
        }
        #expect(weakPlumber == nil)
        #expect(kept.count == 1)

        kept.values.first?(Number(2))            // called after the plumber is gone: nothing runs
        kept.reset()                             // dropped after the plumber is gone: no block reported
        #expect(log.entries.count == 0)
        #expect(port.emit(Number(3), portNumber: 0) == false)
    }

    @Test func plumberFreedWhileAnAsyncStageRunsCancelsItAndReportsNothing() async {
        let log = OutcomeLog<Number>()
        let started = Tally()
        let finished = Tally()
        let port = NumberPort()
        weak var weakPlumber: Plumber<Number>?
        do {
            let plumber = Plumber<Number>()
                .addPort(port)
                .addPipeline(AsyncClosureStage("Slow") { (packet: Number) in
                    defer { finished.hit() }
                    started.hit()
                    let (stream, _) = AsyncStream.makeStream(of: Int.self)
                    for await _ in stream {}           // ends only when the task is cancelled
                    try Task.checkCancellation()
                    return packet
                })
            log.attach(to: plumber)
            weakPlumber = plumber
            port.emit(Number(1), portNumber: 0)
            await started.wait(for: 1)
        }
        #expect(weakPlumber == nil)
        await finished.wait(for: 1)                  // the plumber's deinit cancelled the stage
        // The stage's task reports after `finished`; give it the chance to (wrongly) do so through a barrier task
        // that runs after it on the same cooperative pool.
        for _ in 0..<100 { await Task.yield() }
        #expect(log.entries.count == 0)
    }

    @Test func plumberPortsAndStagesAreReleased() async {
        final class ObjectStage: PipelineStage {
            func receive(_ packet: Number, next: Next<Number>) { next(packet) }
        }
        await expectReleased { tracker in
            let port = tracker.track(NumberPort(), "port")
            let stage = tracker.track(ObjectStage(), "stage")
            let plumber = tracker.track(Plumber<Number>(), "plumber")
            let log = OutcomeLog<Number>()
            log.attach(to: plumber.addPort(port).addPipeline(stage).addPipeline(Wall()))
            port.emit(Number(1), portNumber: 1)
            _ = await plumber.process(Number(2), portNumber: 2)
            #expect(log.blocked.count == 2)
        }
    }

    @Test func inFlightContinuationsAreReleased() async {
        let queue = DispatchQueue(label: "leak")
        await expectReleased { tracker in
            let plumber = tracker.track(Plumber<Number>(), "plumber")
            let log = OutcomeLog<Number>()
            log.attach(to: plumber
                .addPipeline(ClosureStage("Defer") { (packet: Number, next) in queue.async { next(packet) } })
                .addPipeline(AsyncClosureStage("Async") { $0 })
                .addPipeline(Mark("end")))
            let result = await plumber.process(Number(1), portNumber: 0)
            #expect(result.output?.path == ["end"])
        }
    }

    /// A port keeps the core of each plumber it was wired to until its next route build prunes it, and the core kept
    /// the freed plumber's stages and handlers, and whatever they captured, for as long (before routes were built
    /// lazily: until another plumber was wired to the port, so for the port's whole life if none was).
    @Test func aFreedPlumbersStagesAndHandlersGoWithItWhileItsPortLives() {
        final class Token: Sendable {}
        let port = NumberPort()
        weak var stageToken: Token?
        weak var asyncStageToken: Token?
        weak var handlerToken: Token?
        do {
            let (forStage, forAsyncStage, forHandler) = (Token(), Token(), Token())
            (stageToken, asyncStageToken, handlerToken) = (forStage, forAsyncStage, forHandler)
            let plumber = Plumber<Number>().addPort(port)
                .addPipeline(ClosureStage("Holds") { (packet: Number, next) in
                    withExtendedLifetime(forStage) { next(packet) }
                })
                .addPipeline(AsyncClosureStage("HoldsToo") { (packet: Number) in
                    withExtendedLifetime(forAsyncStage) { packet }
                })
                .onOutput { _ in withExtendedLifetime(forHandler) {} }
            withExtendedLifetime(plumber) {}
        }
        #expect(stageToken == nil)
        #expect(asyncStageToken == nil)
        #expect(handlerToken == nil)
        #expect(!port.isWired)
        #expect(!port.emit(Number(1), portNumber: 0))
    }

    @Test func portDoesNotKeepItsPlumberAlive() {
        let port = NumberPort()
        weak var weakPlumber: Plumber<Number>?
        do {
            let plumber = Plumber<Number>().addPort(port)
            weakPlumber = plumber
            #expect(port.isWired)
        }
        #expect(weakPlumber == nil)
        #expect(!port.isWired)
    }

    /// MainActorAndTokens.md: the plumber is the token and stops when released, visibly.
    @Test func aPlumberNobodyKeepsStopsAtOnceAndEmitSaysSo() {
        let port = NumberPort()
        let outputs = Recorder<Int>()
        _ = Plumber<Number>().addPort(port).onOutput { outputs.record($0.value) }
        #expect(!port.isWired)
        #expect(!port.emit(Number(1), portNumber: 0))
        #expect(outputs.values.isEmpty)
    }

    @Test func liveObjectsAreCounted() {
        // Other tests run in parallel, so only a lower bound can be checked.
        let plumber = Plumber<Number>()
        let port = NumberPort()
        let live = RippleDiagnostics.liveObjects
        #expect(live["RipplePipeline.Plumber", default: 0] >= 1)
        #expect(live["RipplePipeline.PacketPort", default: 0] >= 1)
        withExtendedLifetime((plumber, port)) {}
    }
}
