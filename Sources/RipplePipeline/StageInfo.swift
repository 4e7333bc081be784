/// Names a stage of a plumber: where it sits in the chain and what it is called.
///
/// ``Plumber/onBlocked(_:)``, ``Plumber/onFailure(_:)`` and ``PipelineResult`` use it to say which stage stopped a
/// packet. The same stage value may sit at several indexes, so the index tells them apart.
public struct StageInfo: Sendable, Hashable, CustomStringConvertible {
    /// The stage's position in the plumber's chain, from 0.
    public let index: Int
    /// The stage's ``PipelineStage/name`` (by default its type name).
    public let name: String

    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }

    public var description: String {
        "\(name) (stage \(index))"
    }
}
