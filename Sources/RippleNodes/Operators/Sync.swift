import RippleCore

extension MutableNode {
    /// Keeps this node and `other` equal in both directions (EasyReact's `syncWith:`). This node takes `other`'s value
    /// first. The two transforms form a ring that lives until the returned token is cancelled.
    @discardableResult
    public func sync(with other: MutableNode<Value>) -> any CancelToken {
        let backward = Transform<Value, Value>()
        backward.name = "syncWith"
        let forward = Transform<Value, Value>()
        forward.name = "syncWith"
        return linkRing(other, backward: backward, forward: forward)
    }

    /// Keeps this node and `other` in step through a pair of conversions (`syncWith:transform:revert:`):
    /// `transform` turns `other`'s values into this node's, `revert` turns this node's into `other`'s.
    @discardableResult
    public func sync<Other: Sendable>(
        with other: MutableNode<Other>,
        transform: @escaping @Sendable (Other) -> Value,
        revert: @escaping @Sendable (Value) -> Other
    ) -> any CancelToken {
        let backward = MapTransform(transform)
        backward.name = "syncWith"
        let forward = MapTransform(revert)
        forward.name = "syncWith"
        return linkRing(other, backward: backward, forward: forward)
    }

    /// EasyReact's spelling of ``sync(with:)``.
    @discardableResult
    public func syncWith(_ other: MutableNode<Value>) -> any CancelToken {
        sync(with: other)
    }

    /// EasyReact's spelling of ``sync(with:transform:revert:)``.
    @discardableResult
    public func syncWith<Other: Sendable>(
        _ other: MutableNode<Other>,
        transform: @escaping @Sendable (Other) -> Value,
        revert: @escaping @Sendable (Value) -> Other
    ) -> any CancelToken {
        sync(with: other, transform: transform, revert: revert)
    }

    private func linkRing<Other: Sendable>(_ other: MutableNode<Other>, backward: Transform<Other, Value>,
                                           forward: Transform<Value, Other>) -> any CancelToken {
        connect(other, through: backward)
        other.connect(self, through: forward)
        return ClosureCancelToken {
            backward.detach()
            forward.detach()
        }
    }
}
