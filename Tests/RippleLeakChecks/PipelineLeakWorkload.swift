import RipplePipeline

enum PipelineLeakWorkload {
    struct Packet: RipplePipeline.Packet {
        var portNumber = 0
        var value: Int
    }

    final class NumberPort: PacketPort<Packet> {}

    /// The protocol form of a port.
    final class NumberSource: PacketSource, Sendable {
        let packetOutlet = PacketOutlet<Packet>()
    }

    /// A plumber with a subclassed and an adopting port and passing, replacing and blocking stages; packets emitted
    /// and run serially (the synchronous form), then all dropped.
    static func run() {
        let port = NumberPort()
        let second = NumberSource()
        let double = ClosureStage("double") { (packet: Packet, next) in
            next(Packet(portNumber: packet.portNumber, value: packet.value * 2))
        }
        let evenOnly = ClosureStage("even only") { (packet: Packet, next) in
            if packet.value.isMultiple(of: 4) { next(packet) }
        }
        let plumber = Plumber<Packet>()
            .addPort(port)
            .addPort(second)
            .addPipeline(double)
            .addPipeline(evenOnly)
            .onOutput { _ in }
            .onBlocked { _, _ in }
        for value in 0..<4 {
            port.emit(Packet(value: value), portNumber: 1)
            second.emit(Packet(value: value), portNumber: 2)
            _ = runSerially([double, evenOnly], Packet(value: value))
        }
        _ = plumber.stages
    }
}
