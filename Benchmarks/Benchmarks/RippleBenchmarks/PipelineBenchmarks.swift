import Benchmark
import RipplePipeline

/// Issue 9's pipeline target: one packet through 4 synchronous stages, against calling the same 4 functions directly.
func registerPipelineBenchmarks() {
    Benchmark("Pipeline4Stages/Ripple", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let port = BenchPort()
        let plumber = Plumber<BenchPacket>()
            .addPort(port)
            .addPipeline(StepStage())
            .addPipeline(StepStage())
            .addPipeline(StepStage())
            .addPipeline(StepStage())
            .onOutput { sum.value &+= $0.value }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { port.emit(BenchPacket(value: value), portNumber: 1) }
        benchmark.stopMeasurement()
        withExtendedLifetime(plumber) {}
        check(sum, equals: expectedSum(benchmark.scaledIterations), "Pipeline4Stages/Ripple")
    }

    Benchmark("Pipeline4Stages/DirectCalls", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            var packet = BenchPacket(value: value)
            packet.portNumber = 1
            sum.value &+= step(step(step(step(packet)))).value
        }
        benchmark.stopMeasurement()
        check(sum, equals: expectedSum(benchmark.scaledIterations), "Pipeline4Stages/DirectCalls")
    }
}

/// Each packet carries its iteration number (so no call can be hoisted out of the loop) and leaves 4 steps higher.
func expectedSum(_ values: Range<Int>) -> Int {
    values.reduce(0) { $0 &+ $1 &+ 4 }
}

struct BenchPacket: Packet {
    var portNumber = 0
    var value: Int
}

/// A port in the protocol form; emitting through a `PacketPort` subclass costs the same (callgrind: 603 instructions
/// per packet either way).
final class BenchPort: PacketSource, Sendable {
    let packetOutlet = PacketOutlet<BenchPacket>()
}

/// The stage's work, kept out of line so neither workload can fold it away.
@inline(never)
func step(_ packet: BenchPacket) -> BenchPacket {
    var packet = packet
    packet.value &+= 1
    return packet
}

/// A synchronous stage: does its work and passes the packet on during `receive`.
struct StepStage: PipelineStage {
    func receive(_ packet: BenchPacket, next: Next<BenchPacket>) {
        next(step(packet))
    }
}
