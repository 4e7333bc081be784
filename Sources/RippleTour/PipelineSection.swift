import Dispatch
import RipplePipeline

/// PipelinePlumber's share-link scenario: a port emits a share packet; four stages check login, document and user,
/// then ask for the link asynchronously; the output receives the link. Then a share that a check blocks.
let pipelineSection = TourSection(name: "pipeline", summary: "ports → pipeline stages → output (PipelinePlumber)") {
    log in
    typealias Share = PipelineTour.SharePacket
    log.heading("RipplePipeline — share a document link")
    log.code("Plumber<SharePacket>().addPort(port).addPipeline(CheckLogin())…addPipeline(RequestDocLink())"
        + ".onOutput { … }")

    // Each outcome wakes the tour, so it prints in the order things happen without sleeping.
    let (outcomes, outcome) = AsyncStream.makeStream(of: Void.self)
    let port = PipelineTour.ShareEventPort()
    let rules = PipelineTour.Rules()
    let plumber = Plumber<Share>()
        .addPort(port)
        .addPipeline(PipelineTour.CheckLogin(rules: rules, log: log))
        .addPipeline(PipelineTour.CheckDocAttribute(rules: rules, log: log))
        .addPipeline(PipelineTour.CheckUserAttribute(rules: rules, log: log))
        .addPipeline(PipelineTour.RequestDocLink(log: log))
        .onOutput { packet in
            log.print("output: link \(packet.link ?? "-") (port \(packet.portNumber), doc \(packet.docId), "
                + "user \(packet.userId), entrance \(packet.entrance))")
            outcome.yield()
        }
        .onBlocked { packet, stage in
            log.print("blocked by \(stage.name): no link for \(packet.userId) on \(packet.docId)")
            outcome.yield()
        }
    var next = outcomes.makeAsyncIterator()

    log.print("alice taps share on doc-42")
    port.receiveShareEvent(["docId": "doc-42", "userId": "alice", "entrance": "toolbar"])
    _ = await next.next()

    log.print("bob taps share on doc-42")
    port.receiveShareEvent(["docId": "doc-42", "userId": "bob", "entrance": "menu"])
    _ = await next.next()

    log.code("let result = await plumber.process(packet, portNumber: 100)   // the outcome as a value")
    let result = await plumber.process(Share(docId: "doc-9", userId: "alice"), portNumber: 100)
    _ = await next.next()
    switch result {
    case .output(let packet): log.print("result: output \(packet.link ?? "-")")
    case .blocked(_, let stage): log.print("result: blocked at stage \(stage.index), \(stage.name)")
    case .failed(_, let stage, let error): log.print("result: \(stage.name) failed with \(error)")
    }
}

/// The tour's twin of the share-link example types the tests use (the tour cannot import test code).
enum PipelineTour {
    struct SharePacket: Packet {
        var portNumber = 0
        var metaData: [String: String] = [:]
        var docId = ""
        var entrance = ""
        var userId = ""
        var link: String?
    }

    /// Adopts `PacketSource` as the seed's port adopts `PortDelegate`; made of `let`s, so checked `Sendable`.
    final class ShareEventPort: PacketSource, Sendable {
        let packetOutlet = PacketOutlet<SharePacket>()

        func receiveShareEvent(_ event: [String: String]) {
            var packet = SharePacket()
            packet.metaData = event
            packet.docId = event["docId"] ?? ""
            packet.userId = event["userId"] ?? ""
            packet.entrance = event["entrance"] ?? ""
            emit(packet, portNumber: 100)
        }
    }

    struct Rules: Sendable {
        var loggedInUsers: Set<String> = ["alice", "bob"]
        var linkableDocs: Set<String> = ["doc-42", "doc-7"]
        var sharers: Set<String> = ["alice"]
    }

    struct CheckLogin: PipelineStage {
        let rules: Rules
        let log: TourLog

        func receive(_ packet: SharePacket, next: Next<SharePacket>) {
            let passes = rules.loggedInUsers.contains(packet.userId)
            log.print("CheckLogin: \(packet.userId) \(passes ? "is logged in" : "is not logged in")")
            if passes { next(packet) }
        }
    }

    struct CheckDocAttribute: PipelineStage {
        let rules: Rules
        let log: TourLog

        func receive(_ packet: SharePacket, next: Next<SharePacket>) {
            let passes = rules.linkableDocs.contains(packet.docId)
            log.print("CheckDocAttribute: \(packet.docId) \(passes ? "can have a link" : "cannot have a link")")
            if passes { next(packet) }
        }
    }

    struct CheckUserAttribute: PipelineStage {
        let rules: Rules
        let log: TourLog

        func receive(_ packet: SharePacket, next: Next<SharePacket>) {
            let passes = rules.sharers.contains(packet.userId)
            log.print("CheckUserAttribute: \(packet.userId) \(passes ? "may share" : "may not share")")
            if passes { next(packet) }
        }
    }

    struct RequestDocLink: AsyncPipelineStage {
        let log: TourLog

        func process(_ packet: SharePacket) async throws -> SharePacket? {
            log.print("RequestDocLink: requesting a link for \(packet.docId)")
            let link = await withCheckedContinuation { continuation in
                // Stands in for the network callback of the seed's link request.
                DispatchQueue.global().async {
                    continuation.resume(returning: "https://docs.example.com/s/\(packet.docId)")
                }
            }
            var packet = packet
            packet.link = link
            return packet
        }
    }
}
