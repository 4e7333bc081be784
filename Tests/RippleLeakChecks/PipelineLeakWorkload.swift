import RipplePipeline

enum PipelineLeakWorkload {
    struct Packet: RipplePipeline.Packet {
        var portNumber = 0
        var value: Int
    }

    final class NumberPort: PacketPort<Packet> {}

    /// A plumber with two ports and passing, replacing and blocking stages; packets emitted, then all dropped.
    static func run() {
        let port = NumberPort()
        let second = NumberPort()
        let plumber = Plumber<Packet>()
            .addPort(port)
            .addPort(second)
            .addPipeline(ClosureStage("double") { packet, next in next(Packet(portNumber: packet.portNumber, value: packet.value * 2)) })
            .addPipeline(ClosureStage("even only") { packet, next in if packet.value.isMultiple(of: 4) { next(packet) } })
            .onOutput { _ in }
            .onBlocked { _, _ in }
        for value in 0..<4 {
            port.emit(Packet(value: value), portNumber: 1)
            second.emit(Packet(value: value), portNumber: 2)
        }
        _ = plumber.stages
    }
}
