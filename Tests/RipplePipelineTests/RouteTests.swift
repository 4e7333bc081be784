import RipplePipeline
import RippleTesting
import Testing

/// A port runs the chains it was last handed (see `Route`): every change of wiring, stages, handlers or a
/// plumber's lifetime must reach it before the call that made the change returns.
@Suite("PacketPort routes", .timeLimit(.minutes(10)))
struct RouteTests {
    /// Something a handler holds, to see when the chain that holds the handler is freed.
    final class Token: Sendable {}

    /// `@unchecked Sendable`: `token` is set before the plumber runs and only read afterwards or on the emitting thread.
    final class Watch: @unchecked Sendable {
        weak var token: Token?
    }

    @Test func portAddedToSeveralPlumbersFollowsEachOnesChanges() {
        let port = NumberPort()
        let first = Recorder<[String]>()
        let second = Recorder<[String]>()
        let one = Plumber<Number>().addPort(port).onOutput { first.record($0.path) }
        let two = Plumber<Number>().addPort(port).onOutput { second.record($0.path) }

        #expect(port.emit(Number(1), portNumber: 0))
        one.addPipeline(Mark("one"))
        #expect(port.emit(Number(2), portNumber: 0))
        two.addPipeline(Mark("two"))
        #expect(port.emit(Number(3), portNumber: 0))

        #expect(first.values == [[], ["one"], ["one"]])
        #expect(second.values == [[], [], ["two"]])
    }

    @Test func freeingOnePlumberLeavesTheOtherWiredAndFreeingBothUnwires() {
        let port = NumberPort()
        let kept = Recorder<Int>()
        let dropped = Recorder<Int>()
        var stays: Plumber<Number>? = Plumber<Number>().addPort(port).onOutput { kept.record($0.value) }
        var goes: Plumber<Number>? = Plumber<Number>().addPort(port).onOutput { dropped.record($0.value) }
        #expect(port.emit(Number(1), portNumber: 0))
        withExtendedLifetime(goes) {}
        goes = nil

        #expect(port.emit(Number(2), portNumber: 0))
        #expect(kept.values == [1, 2])
        #expect(dropped.values == [1])

        withExtendedLifetime(stays) {}
        stays = nil
        #expect(!port.emit(Number(3), portNumber: 0))
        #expect(!port.isWired)
        #expect(kept.values == [1, 2])
    }

    @Test func chainReplacedDuringAnEmitIsFreedWhenTheEmitLeaves() {
        let port = NumberPort()
        let watch = Watch()
        let seenDuringEmit = Recorder<Bool>()
        let plumber = Plumber<Number>().addPort(port)
        do {
            let token = Token()
            watch.token = token
            plumber.onOutput { _ in withExtendedLifetime(token) {} }
        }
        plumber.addPipeline(ClosureStage("Replace") { [weak plumber] (packet: Number, next) in
            // Replaces the handler that holds the token; the running packet still uses the old chain.
            plumber?.onOutput { _ in }
            seenDuringEmit.record(watch.token != nil)
            next(packet)
        })

        port.emit(Number(1), portNumber: 0)
        #expect(seenDuringEmit.values == [true])
        #expect(watch.token == nil)
        #expect(plumber.unhandled.total == 0)
    }

    /// Emits nested deeper than a route has frames (a handler emitting through the same port) use records of their
    /// own, and every level still runs, blocks and outputs as usual.
    @Test func emitsNestedDeeperThanThePooledFramesStillRun() {
        let port = NumberPort()
        let outputs = Recorder<Int>()
        let blocked = Recorder<Int>()
        let plumber = Plumber<Number>()
            .addPort(port)
            .addPipeline(Mark("a"))
            .addPipeline(ClosureStage("OddBlocked") { (packet: Number, next) in
                if packet.value.isMultiple(of: 2) { next(packet) }
            })
            .addPipeline(Mark("b"))
            .onBlocked { packet, _ in blocked.record(packet.value) }
        plumber.onOutput { packet in
            outputs.record(packet.value)
            // Each level emits the next two values from inside the output handler.
            if packet.value < 16 {
                port.emit(Number(packet.value + 1), portNumber: 0)
                port.emit(Number(packet.value + 2), portNumber: 0)
            }
        }

        port.emit(Number(0), portNumber: 0)

        #expect(outputs.values == Array(stride(from: 0, through: 16, by: 2)))
        #expect(blocked.values == Array(stride(from: 1, through: 15, by: 2)))
        #expect(plumber.unhandled.total == 0)
    }
}
