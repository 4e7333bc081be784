import RippleCore
import RippleNodes
import RippleSignals

extension Node {
    /// The node as a signal: the current value first (if the node is not empty), then every value the node receives.
    ///
    /// ```swift
    /// let name = MutableNode("Ada")
    /// let disposer = name.signal.subscribe(value: { print($0) })   // "Ada"
    /// name.value = "Grace"                                         // "Grace"
    /// disposer.dispose()                                           // stops listening, releases the node
    /// ```
    ///
    /// - Each subscription attaches its own listener to the node, so values arrive as they do for
    ///   `listened(by:)`: synchronously, on the thread that set the node, in setting order; emptying the node
    ///   (`clean()`) sends nothing.
    /// - The signal never fails and never completes: a node has no end.
    /// - While subscribed, the listener keeps the node alive (the way a `listened(by:)` edge does). Disposing the
    ///   subscription removes the listener and releases the node and everything the subscription held.
    /// - A subscription nobody disposes lives as long as the node's listener list references it — that is, until
    ///   disposed: keep the returned `Disposer` and dispose it, or bound the signal with an operator such as `take`.
    public final var signal: Signal<Value, Never> {
        Signal { [self] subscriber in
            // The bag owns the listen edge; the subscriber's cleanup owns the bag. Disposal cancels the bag, which
            // detaches the edge from the node, which releases the subscriber its closure captured.
            let bag = CancelBag()
            listened(by: bag).withBlock { value in subscriber.send(value) }
            return Disposer { bag.cancel() }
        }
    }
}
