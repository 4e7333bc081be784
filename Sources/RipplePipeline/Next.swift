#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RippleCore

/// The continuation a ``PipelineStage`` calls to pass a packet to the rest of the chain.
///
/// Call it with the packet (or a new one) to continue: during ``PipelineStage/receive(_:next:)`` the rest of the
/// chain runs inside the call; called later, from any thread, the rest of the chain runs on the calling thread.
/// Calling it twice fans out: the rest of the chain runs once per call. Releasing every copy without calling it
/// blocks the packet, which ``Plumber/onBlocked(_:)`` reports with the stage's name.
///
/// If the plumber has been freed by the time a kept `Next` is called or dropped, nothing runs and nothing is reported.
@frozen
public struct Next<P: Packet>: Sendable {
    @usableFromInline let box: NextBox<P>

    @inlinable
    init(box: NextBox<P>) {
        self.box = box
    }

    /// Passes `packet` to the next stage (or to the output after the last stage).
    @inlinable
    public func callAsFunction(_ packet: P) {
        box.pass(packet)
    }

    /// The stage this continuation belongs to.
    public var stage: StageInfo {
        box.chain.stages.info(at: box.index)
    }
}
