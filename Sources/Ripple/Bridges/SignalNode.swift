import RippleCore
import RippleNodes
import RippleSignals

/// How a signal ended: what ``SignalNode/termination`` holds once the signal has ended.
public enum SignalTermination<Failure: Error>: Sendable {
    /// The signal completed normally.
    case completed
    /// The signal failed with `error`.
    case failed(Failure)

    /// The error, or nil when the signal completed.
    public var error: Failure? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// A node fed by a signal, with the signal's end surfaced as a second node. Made by ``RippleSignals/Signal/signalNode()``.
///
/// ```swift
/// let fed = request.signalNode()                    // Signal<String, any Error> → SignalNode
/// fed.values.listened(by: bag).withBlock { print("got", $0) }
/// fed.termination.listened(by: bag).withBlock { print("ended:", $0) }
/// ```
///
/// - ``values`` holds the latest value the signal sent (empty until the first one). It is read-only.
/// - ``termination`` is empty while the signal runs; when the signal completes or fails it receives
///   ``SignalTermination/completed`` or ``SignalTermination/failed(_:)`` once, and its listeners hear it. An error is
///   never dropped: it is there to read or listen to, and ``values`` keeps the last value sent before it.
/// - The subscription lives exactly as long as ``values``: the node owns the edge that owns the subscription.
///   When ``values`` is freed the subscription is disposed; when the signal ends the subscription is released and
///   the node simply stops changing.
public struct SignalNode<Value: Sendable, Failure: Error>: Sendable {
    /// The latest value the signal sent.
    public let values: Node<Value>
    /// How the signal ended; empty while it runs.
    public let termination: Node<SignalTermination<Failure>>
}

extension Signal {
    /// Subscribes now and returns a node holding the latest value, plus a node telling how the signal ended.
    ///
    /// The subscription lives as long as ``SignalNode/values``; see ``SignalNode`` for the end of the signal.
    /// Values are set on the thread the signal sends them from, so listeners of the node run there.
    public func signalNode() -> SignalNode<Value, Failure> {
        // A private mutable source feeds each read-only node through a pass-through edge that the node owns: the
        // public nodes stay read-only, and their edges are where the subscription's lifetime is anchored.
        let valueSource = MutableNode<Value>().named("signal")
        let endSource = MutableNode<SignalTermination<Failure>>().named("signal termination")
        let termination = Node<SignalTermination<Failure>>().named("termination")
        let endEdge = SubscriptionEdge<SignalTermination<Failure>>(keeping: nil)
        termination.link(to: endSource, transform: endEdge)

        let values = Node<Value>().named("signal node")
        // The value edge keeps the termination node alive too, so a listener on it hears the end even if its
        // caller only kept `values`.
        let valueEdge = SubscriptionEdge<Value>(keeping: termination)
        values.link(to: valueSource, transform: valueEdge)

        let disposer = subscribe(
            value: { value in valueSource.value = value },
            error: { error in endSource.value = .failed(error) },
            complete: { endSource.value = .completed })
        valueEdge.hold(disposer)
        return SignalNode(values: values, termination: termination)
    }
}

extension Signal where Failure == Never {
    /// A node holding the latest value of a signal that cannot fail.
    ///
    /// ```swift
    /// let latest = ticks.node()         // Signal<Int, Never> → Node<Int>
    /// ```
    ///
    /// The subscription lives exactly as long as the node. When the signal completes the node keeps its last value
    /// and stops changing; to hear about that completion use ``RippleSignals/Signal/signalNode()`` and its
    /// ``SignalNode/termination``. The node is read-only; `mutablify()` it if you also want to set it (the signal's
    /// next value then overwrites yours).
    public func node() -> Node<Value> {
        signalNode().values
    }
}

/// The pass-through edge a ``SignalNode`` node owns: it holds the subscription (disposed when the edge is freed,
/// that is when the node is freed) and whatever else must live as long as the node.
///
/// `@unchecked Sendable`: `disposer` is only touched under `lock`; `kept` is immutable.
final class SubscriptionEdge<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    private let lock = Lock()
    private var disposer: Disposer?
    private let kept: AnyObject?

    init(keeping kept: AnyObject?) {
        self.kept = kept
        super.init()
    }

    func hold(_ disposer: Disposer) {
        lock.withLock { self.disposer = disposer }
    }

    deinit {
        let taken = lock.withLock { disposer }
        taken?.dispose()
    }
}
