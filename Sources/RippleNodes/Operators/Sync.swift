import RippleCore

// Invariants: a sync writes into both nodes, so both must be mutable (a derived node reached by a cast stops here as
// a plain set on it does) and distinct; each check names the API the caller used.

extension MutableNode {
    /// Keeps this node and `other` equal in both directions (EasyReact's `syncWith:`). This node takes `other`'s value
    /// first. The two transforms form a ring that lives until the returned token is cancelled.
    public func sync(with other: MutableNode<Value>) -> any CancelToken {
        syncRing(other, api: "MutableNode.sync(with:)")
    }

    private func syncRing(_ other: MutableNode<Value>, api: String) -> any CancelToken {
        let backward = Transform<Value, Value>()
        backward.name = "syncWith"
        let forward = Transform<Value, Value>()
        forward.name = "syncWith"
        return linkRing(other, backward: backward, forward: forward, api: api)
    }

    /// Keeps this node and `other` in step through a pair of conversions (`syncWith:transform:revert:`):
    /// `transform` turns `other`'s values into this node's, `revert` turns this node's into `other`'s.
    public func sync<Other: Sendable>(
        with other: MutableNode<Other>,
        transform: @escaping @Sendable (Other) -> Value,
        revert: @escaping @Sendable (Value) -> Other
    ) -> any CancelToken {
        syncRing(other, transform: transform, revert: revert, api: "MutableNode.sync(with:transform:revert:)")
    }

    private func syncRing<Other: Sendable>(
        _ other: MutableNode<Other>,
        transform: @escaping @Sendable (Other) -> Value,
        revert: @escaping @Sendable (Value) -> Other,
        api: String
    ) -> any CancelToken {
        let backward = MapTransform(transform)
        backward.name = "syncWith"
        let forward = MapTransform(revert)
        forward.name = "syncWith"
        return linkRing(other, backward: backward, forward: forward, api: api)
    }

    /// EasyReact's spelling of ``sync(with:)``.
    public func syncWith(_ other: MutableNode<Value>) -> any CancelToken {
        syncRing(other, api: "MutableNode.syncWith(_:)")
    }

    /// EasyReact's spelling of ``sync(with:transform:revert:)``.
    public func syncWith<Other: Sendable>(
        _ other: MutableNode<Other>,
        transform: @escaping @Sendable (Other) -> Value,
        revert: @escaping @Sendable (Value) -> Other
    ) -> any CancelToken {
        syncRing(other, transform: transform, revert: revert, api: "MutableNode.syncWith(_:transform:revert:)")
    }

    private func linkRing<Other: Sendable>(_ other: MutableNode<Other>, backward: Transform<Other, Value>,
                                           forward: Transform<Value, Other>, api: String) -> any CancelToken {
        if self === other {
            programmerError("\(api) cannot sync node '\(name ?? "undefined")' with itself")
        }
        func readOnly(_ node: any GraphNode) -> Never {
            let name = node.name ?? "undefined"
            programmerError("\(api) cannot write into read-only node '\(name)'; call mutablify() first")
        }
        if !isMutable { readOnly(self) }
        if !other.isMutable { readOnly(other) }
        connect(other, through: backward)
        other.connect(self, through: forward)
        return ClosureCancelToken {
            backward.detach()
            forward.detach()
        }
    }
}
