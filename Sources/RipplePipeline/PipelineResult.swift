/// How a packet left a plumber: through the output, blocked by a stage, or failed by a throwing stage.
///
/// ``Plumber/process(_:portNumber:)`` returns it; the handlers ``Plumber/onOutput(_:)``, ``Plumber/onBlocked(_:)``
/// and ``Plumber/onFailure(_:)`` receive the same three outcomes.
public enum PipelineResult<P: Packet>: Sendable {
    /// The packet left the last stage (or the plumber had no stages).
    case output(P)
    /// `stage` blocked the packet; `packet` is the packet that stage received.
    case blocked(P, stage: StageInfo)
    /// `stage` (an ``AsyncPipelineStage``) threw `error` for `packet`.
    case failed(P, stage: StageInfo, error: any Error)

    /// The output packet, or nil when the packet was blocked or failed.
    public var output: P? {
        if case .output(let packet) = self { return packet }
        return nil
    }

    /// The stage that stopped the packet, or nil when it reached the output.
    public var stoppingStage: StageInfo? {
        switch self {
        case .output: nil
        case .blocked(_, let stage), .failed(_, let stage, _): stage
        }
    }
}
