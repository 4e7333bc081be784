// Callgrind harness for the RipplePipeline rows of BENCHMARKS.md, with the same workload shapes as
// Benchmarks/Benchmarks/RippleBenchmarks/PipelineBenchmarks.swift. `PipelineCallgrind <workload> <units>` builds the
// plumber, then emits `units` packets. Instructions per packet = (Ir at 2N − Ir at N) ÷ N, so setup cancels out.
// Build against a release build:
//   RIPPLE_WITHOUT_ACTION_PROTOCOL=1 swift build -c release --target RipplePipeline
//   swiftc -O -parse-as-library -I .build/release/Modules Benchmarks/callgrind/PipelineCallgrind.swift \
//     .build/release/{RipplePipeline,RippleCore}.build/*.o -o /tmp/pipeline-cg
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/pipeline-cg Pipeline4Stages 20000
// Workloads: Pipeline4Stages (one packet from a port through 4 synchronous stages to the output), DirectCalls (the 4
// functions called directly), AddPipeline (units = stages added one `addPipeline` at a time to a plumber with a port:
// the figure per stage must not grow with N).
#if canImport(Glibc)
import Glibc
#endif
import RipplePipeline

final class Sum: @unchecked Sendable {
    @exclusivity(unchecked) var value = 0
}

struct BenchPacket: Packet {
    var portNumber = 0
    var value: Int
}

final class BenchPort: PacketSource, Sendable {
    let packetOutlet = PacketOutlet<BenchPacket>()
}

@inline(never)
func step(_ packet: BenchPacket) -> BenchPacket {
    var packet = packet
    packet.value &+= 1
    return packet
}

struct StepStage: PipelineStage {
    func receive(_ packet: BenchPacket, next: Next<BenchPacket>) {
        next(step(packet))
    }
}

func pipeline(_ n: Int) -> Int {
    let sum = Sum()
    let port = BenchPort()
    let plumber = Plumber<BenchPacket>()
        .addPort(port)
        .addPipeline(StepStage())
        .addPipeline(StepStage())
        .addPipeline(StepStage())
        .addPipeline(StepStage())
        .onOutput { sum.value &+= $0.value }
    for value in 0..<n { port.emit(BenchPacket(value: value), portNumber: 1) }
    withExtendedLifetime(plumber) {}
    return sum.value
}

func direct(_ n: Int) -> Int {
    let sum = Sum()
    for value in 0..<n {
        var packet = BenchPacket(value: value)
        packet.portNumber = 1
        sum.value &+= step(step(step(step(packet)))).value
    }
    return sum.value
}

func build(_ n: Int) -> Int {
    let plumber = Plumber<BenchPacket>().addPort(BenchPort())
    for _ in 0..<n { plumber.addPipeline(StepStage()) }
    return plumber.stages.count
}

@main
struct PipelineCallgrind {
    static func main() {
        let arguments = CommandLine.arguments
        let name = arguments[1]
        let n = arguments.count > 2 ? Int(arguments[2])! : 1000
        let result: Int
        switch name {
        case "Pipeline4Stages": result = pipeline(n)
        case "DirectCalls": result = direct(n)
        case "AddPipeline": result = build(n)
        default:
            print("unknown workload \(name)")
            exit(2)
        }
        print(name, n, result)
    }
}
