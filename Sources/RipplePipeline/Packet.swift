/// What flows through a plumber: the seed's data packet (the pipeline's context), stamped with the number of the
/// port that produced it.
///
/// Value types and reference types both work. A port writes ``portNumber`` on a copy before the first stage runs, so
/// a value packet is stamped without touching the caller's copy; a reference packet is stamped in place.
///
/// ```swift
/// struct SharePacket: Packet {
///     var portNumber = 0
///     var docId: String
///     var userId: String
///     var link: String?
/// }
/// ```
public protocol Packet: Sendable {
    /// The number of the port that emitted the packet; stages may branch on it.
    var portNumber: Int { get set }
}
