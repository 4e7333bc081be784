import RippleCore

/// Follows the latest inner node: each new inner node replaces the previous link into the output.
///
/// `@unchecked Sendable`: `inner` is only touched under `edgeLock`.
@usableFromInline
final class FlattenTransform<Inner: Sendable>: Transform<Node<Inner>, Inner>, @unchecked Sendable {
    private var inner: Transform<Inner, Inner>?
    /// Makes the pass-through that follows one inner node. Built where `Inner` is concrete, since `next` runs
    /// unspecialised: there, creating a `Transform<Inner, Inner>` looks its metadata up, twice.
    @usableFromInline let makeFollower: @Sendable () -> Transform<Inner, Inner>

    @inlinable
    override init() {
        makeFollower = { Transform<Inner, Inner>() }
        super.init()
    }

    override func next(_ value: Node<Inner>, senders: SenderList, context: (any Sendable)?) {
        guard let output = to else { return }
        let follower = makeFollower()
        follower.name = "flatten.inner"
        let previous = edgeLock.withLock { () -> Transform<Inner, Inner>? in
            defer { inner = follower }
            return inner
        }
        previous?.detach()
        // An empty inner node empties the output; a non-empty one pushes its value as the link is made.
        if value.isEmpty { output.cleanStorage() }
        if ObjectIdentifier(value) != ObjectIdentifier(output) {
            output.connect(value, through: follower)
        }
    }

    override func toDidChange() {
        if to == nil { detachInner() }
    }

    override func fromDidChange() {
        if from == nil { detachInner() }
    }

    private func detachInner() {
        let previous = edgeLock.withLock { () -> Transform<Inner, Inner>? in
            defer { inner = nil }
            return inner
        }
        previous?.detach()
    }
}

extension Node {
    /// For a node of nodes: a node that always follows the latest inner node (`flatten`). An empty inner node
    /// empties the result.
    @inlinable
    public final func flatten<Inner: Sendable>() -> Node<Inner> where Value == Node<Inner> {
        derive("flatten", FlattenTransform<Inner>())
    }

    /// `map(transform).flatten()` (`flattenMap:`): each value picks the node to follow next.
    @inlinable
    public final func flattenMap<Inner: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Node<Inner>
    ) -> Node<Inner> {
        let mapped = map(transform)
        mapped.name = "flattenMap"
        return mapped.derive("flattenMap", FlattenTransform<Inner>())
    }
}
