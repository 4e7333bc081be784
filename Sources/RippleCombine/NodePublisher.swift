#if canImport(Combine) || OpenCombine
import RippleNodes
import RippleSignals
import Ripple

// Invariants: `node.publisher` is `node.signal.publisher`: each Combine subscriber listens to the node from its
// first demand (hearing the current value first, if any), gets no more values than it requested (the rest wait in a
// buffer), never completes (a node has no end), and stops listening when cancelled, releasing the node.

extension Node {
    /// This node as a Combine publisher that never fails nor completes: the current value first (if the node has
    /// one), then every value the node receives. Cancelling stops listening.
    public final var publisher: SignalPublisher<Value, Never> {
        signal.publisher
    }
}
#endif
