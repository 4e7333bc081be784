import Dispatch
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// The continuation records are reused from packet to packet; these cases must not see a record still in use.
@Suite("Reused continuations", .timeLimit(.minutes(10)))
struct ReusedContinuationTests {
    @Test func continuationCalledAgainFromInsideTheFollowingStage() {
        let stash = Locked<Next<Number>?>(nil)
        let port = NumberPort()
        let outputs = Recorder<[String]>()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("A") { (packet: Number, next) in
                stash.withLock { $0 = next }
                next(packet)
                stash.withLock { $0 = nil }
            })
            .addPipeline(ClosureStage("B") { (packet: Number, next) in
                if packet.path.isEmpty, let again = stash.withLock({ $0 }) {
                    // A's continuation again, while B is still receiving through A's first call.
                    var other = packet
                    other.path = ["again"]
                    again(other)
                }
                var marked = packet
                marked.path.append("B")
                next(marked)
            })
            .onOutput { outputs.record($0.path) }

        port.emit(Number(1), portNumber: 0)
        port.emit(Number(2), portNumber: 0)

        #expect(outputs.values == [["again", "B"], ["B"], ["again", "B"], ["B"]])
        #expect(plumber.unhandled.total == 0)
    }

    @Test func calledDuringReceiveAndAgainFromAnotherThread() {
        let port = NumberPort()
        let outputs = Recorder<Int>()
        let helper = DispatchQueue(label: "helper")
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(ClosureStage("Twice") { (packet: Number, next) in
                next(packet)
                let finished = DispatchSemaphore(value: 0)
                helper.async {
                    next(packet)
                    finished.signal()
                }
                finished.wait()
            })
            .addPipeline(Wall())
            .onOutput { outputs.record($0.value) }

        for value in 0..<100 { port.emit(Number(value), portNumber: 0) }

        // Each packet fans out twice and is blocked by the wall both times; nothing is reported twice or lost.
        #expect(outputs.values.isEmpty)
        #expect(plumber.unhandled == UnhandledOutcomes(outputs: 0, blocked: 200, failures: 0))
    }

    @Test func keptContinuationDroppedLaterStillReportsAndTheNextPacketRuns() async {
        let kept = Recorder<Next<Number>>()
        let log = OutcomeLog<Number>()
        let port = NumberPort()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage("KeepOdd") { (packet: Number, next) in
                if packet.value % 2 == 1 { kept.record(next) } else { next(packet) }
            })
            .addPipeline(Mark("b"))
        log.attach(to: plumber)

        for value in 0..<6 { port.emit(Number(value), portNumber: 0) }
        #expect(log.outputs.map(\.value) == [0, 2, 4])
        #expect(log.blocked.isEmpty)

        let continuations = kept.values
        continuations[0](Number(10))
        kept.reset()
        _ = consume continuations
        // 1 was passed on late; 3 and 5 were dropped uncalled.
        #expect(log.outputs.map(\.value) == [0, 2, 4, 10])
        #expect(Set(log.blocked.map(\.0.value)) == [3, 5])
        #expect(log.blocked.allSatisfy { $0.1 == StageInfo(index: 1, name: "KeepOdd") && $0.0.path == ["a"] })
    }
}
