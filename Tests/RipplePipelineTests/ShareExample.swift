import Dispatch
import RipplePipeline

// The seed's share-link scenario, as example code the tests drive. The tour keeps its own twin of these types (it
// cannot import test code).

/// The seed's `Packet`: everything the share chain needs, and the link the last stage fills in.
struct SharePacket: Packet, Equatable {
    var portNumber = 0
    var metaData: [String: String] = [:]
    var docId = ""
    var entrance = ""
    var userId = ""
    /// Set by ``RequestDocLink``.
    var link: String?
}

/// Produces a packet when the user taps "share" (the seed's `receiveShareEvent:`), on port 100.
/// Adopts `PacketSource` as the seed's port adopts `PortDelegate`; made of `let`s, so checked `Sendable`.
final class ShareEventPort: PacketSource, Sendable {
    let packetOutlet = PacketOutlet<SharePacket>()

    static let portNumber = 100

    func receiveShareEvent(_ event: [String: String]) {
        var packet = SharePacket()
        packet.metaData = event
        packet.docId = event["docId"] ?? ""
        packet.userId = event["userId"] ?? ""
        packet.entrance = event["entrance"] ?? ""
        emit(packet, portNumber: Self.portNumber)
    }
}

/// Who is logged in, which documents may have links, who may share: the scenario's "server state".
struct ShareRules: Sendable {
    var loggedInUsers: Set<String> = ["alice", "bob"]
    var linkableDocs: Set<String> = ["doc-42", "doc-7"]
    var sharers: Set<String> = ["alice"]
}

/// 1. Is the user logged in?
struct CheckLogin: PipelineStage {
    let rules: ShareRules
    let trace: @Sendable (String) -> Void

    func receive(_ packet: SharePacket, next: Next<SharePacket>) {
        let passes = rules.loggedInUsers.contains(packet.userId)
        trace("CheckLogin: \(packet.userId) \(passes ? "is logged in" : "is not logged in")")
        if passes { next(packet) }
    }
}

/// 2. May this document have a link?
struct CheckDocAttribute: PipelineStage {
    let rules: ShareRules
    let trace: @Sendable (String) -> Void

    func receive(_ packet: SharePacket, next: Next<SharePacket>) {
        let passes = rules.linkableDocs.contains(packet.docId)
        trace("CheckDocAttribute: \(packet.docId) \(passes ? "can have a link" : "cannot have a link")")
        if passes { next(packet) }
    }
}

/// 3. May this user turn this document into a link?
struct CheckUserAttribute: PipelineStage {
    let rules: ShareRules
    let trace: @Sendable (String) -> Void

    func receive(_ packet: SharePacket, next: Next<SharePacket>) {
        let passes = rules.sharers.contains(packet.userId)
        trace("CheckUserAttribute: \(packet.userId) \(passes ? "may share" : "may not share")")
        if passes { next(packet) }
    }
}

/// 4. Ask the "server" for the link, asynchronously, and put it into the packet.
struct RequestDocLink: AsyncPipelineStage {
    let trace: @Sendable (String) -> Void

    func process(_ packet: SharePacket) async throws -> SharePacket? {
        trace("RequestDocLink: requesting a link for \(packet.docId)")
        let link = await LinkServer.link(for: packet.docId)
        var packet = packet
        packet.link = link
        return packet
    }
}

/// A stand-in for the link service: answers on another queue, like a network callback.
enum LinkServer {
    static func link(for docId: String) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: "https://docs.example.com/s/\(docId)")
            }
        }
    }
}

/// The seed's `setupPipeline`: port → CheckLogin → CheckDocAttribute → CheckUserAttribute → RequestDocLink.
func makeSharePlumber(port: ShareEventPort, rules: ShareRules = ShareRules(),
                      trace: @escaping @Sendable (String) -> Void = { _ in }) -> Plumber<SharePacket> {
    Plumber<SharePacket>()
        .addPort(port)
        .addPipeline(CheckLogin(rules: rules, trace: trace))
        .addPipeline(CheckDocAttribute(rules: rules, trace: trace))
        .addPipeline(CheckUserAttribute(rules: rules, trace: trace))
        .addPipeline(RequestDocLink(trace: trace))
}
