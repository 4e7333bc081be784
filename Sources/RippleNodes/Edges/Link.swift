import RippleCore

extension Node {
    /// Links `upstream` into this node through `transform` (`linkTo:transform:`): sets `transform.from = upstream`
    /// and `transform.to = self`, which pushes `upstream`'s current value. Note the direction: the receiver is the
    /// downstream end.
    ///
    /// - Returns: a cancellable that unlinks the transform.
    @discardableResult
    public final func link<Upstream: Sendable>(to upstream: Node<Upstream>,
                                               transform: Transform<Upstream, Value>) -> any CancelToken {
        connect(upstream, through: transform)
        // Held strongly (a weak reference would slow every retain of the transform); once `to` is freed the
        // transform lets go of `from`, so a kept cancellable pins nothing.
        return ClosureCancelToken { transform.detach() }
    }

    /// ``link(to:transform:)`` without the cancellable (four allocations): what operators use, since the node they
    /// return owns the transform.
    final func connect<Upstream: Sendable>(_ upstream: Node<Upstream>, through transform: Transform<Upstream, Value>) {
        connect(upstream, through: transform, copyingCurrent: nil)
    }

    /// ``connect(_:through:)`` with `copy` (see `CurrentValueCopy`), or nil for the generic copy.
    final func connect<Upstream: Sendable>(_ upstream: Node<Upstream>, through transform: Transform<Upstream, Value>,
                                           copyingCurrent copy: CurrentValueCopy<Upstream>?) {
        if ObjectIdentifier(upstream) == ObjectIdentifier(self) {
            programmerError("Node.link(to:) cannot link node '\(name ?? "undefined")' to itself")
        }
        transform.linkUnused(from: upstream, to: self, copyingCurrent: copy)
    }

    /// Links `upstream` into this node with a plain pass-through ``Transform`` (`linkTo:`).
    @inlinable @discardableResult
    public final func link(to upstream: Node<Value>) -> any CancelToken {
        link(to: upstream, transform: Transform<Value, Value>())
    }
}
