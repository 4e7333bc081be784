import RippleCore

/// Follows the latest inner node: `select` picks it for each value (`flattenMap`; the identity for `flatten`), and
/// its values reach the output until the next one replaces it.
///
/// Every inner node is linked into the output by a pass-through follower, and the previous follower is detached; so
/// is it when `from` is re-pointed or unlinked. Engine 2 skipped the link for an inner node nobody else could reach,
/// deciding that from the runtime's weak and unowned reference counts; Swift has no supported way to know whether an
/// object is referenced weakly or unowned (a `weak`/`unowned` holder can still set or link the node later), so
/// issue 28 dropped the shortcut rather than read the counts (FlatMapLatestPumping's cost: BENCHMARKS.md "RippleNodes
/// on safe Swift").
///
/// `@unchecked Sendable`: `follower` and `isFollowerLinked` are only touched under `edgeLock`; `select` is
/// immutable.
@usableFromInline @_fixed_layout
final class FlattenTransform<Input: Sendable, Inner: Sendable>: Transform<Input, Inner>, @unchecked Sendable {
    @usableFromInline let select: @Sendable (Input) -> Node<Inner>
    /// The pass-through linking the current inner node into the output.
    @exclusivity(unchecked) private var follower: Transform<Inner, Inner>?
    /// False while the thread that made `follower` is still linking it. Only that thread may touch a follower
    /// until then (concurrent relinks of one transform can leave it in its `to`'s upstream list): whoever replaces
    /// an unlinked-yet follower leaves it to that thread, which detaches it once it finds it replaced.
    @exclusivity(unchecked) private var isFollowerLinked = true

    // Inlinable, so the push thunk is built where the types are concrete.
    @inlinable
    init(select: @escaping @Sendable (Input) -> Node<Inner>) {
        self.select = select
        super.init()
        // Nothing captured, so the thunk needs no context allocation; `select` read from the borrowed transform
        // costs no retain either (measured).
        push = { edge, target, value, _, _ in
            edge._withUnsafeGuaranteedRef { object in
                let transform = unsafeDowncast(object, to: FlattenTransform<Input, Inner>.self)
                let inner = transform.select(value)
                // Borrowed: the caller holds the target. `takeUnretainedValue()` retained and released it, through
                // the side table's slow path.
                target._withUnsafeGuaranteedRef { output in
                    transform.link(inner, into: unsafeDowncast(output, to: Node<Inner>.self),
                                   follower: Transform<Inner, Inner>(),
                                   copyingCurrent: { $0.copyCurrentValue(to: $1) })
                }
            }
        }
    }

    /// Linking pushes the upstream's current value through here (the class's vtable rather than the thunk).
    @usableFromInline
    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        nextThroughPush(value, senders: senders, context: context)
    }

    /// Links `inner` into `output` through `newFollower`, replacing the previous follower. Runs once per inner node;
    /// not inlined.
    @usableFromInline
    final func link(_ inner: Node<Inner>, into output: Node<Inner>, follower newFollower: Transform<Inner, Inner>,
                    copyingCurrent copy: CurrentValueCopy<Inner>?) {
        if inner === output {
            let api = name == "flattenMap" ? "Node.flattenMap(_:)" : "Node.flatten()"
            programmerError("\(api) cannot follow its own output node '\(output.name ?? "undefined")'")
        }
        newFollower.name = "flatten.inner"
        replaceFollower(with: newFollower)
        // An empty inner node empties the output; a non-empty one pushes its value as the link is made.
        if inner.isEmpty { output.cleanStorage() }
        output.connect(inner, through: newFollower, copyingCurrent: copy)
        edgeLock.lock()
        let replaced = follower !== newFollower
        if !replaced { isFollowerLinked = true }
        edgeLock.unlock()
        // Another value switched the output while this one was linking, and left the follower to us.
        if replaced { newFollower.detach() }
    }

    /// Makes `newFollower` (not yet linked, or nil) the follower and detaches the previous one, unless the thread
    /// that made it is still linking it.
    @usableFromInline
    final func replaceFollower(with newFollower: Transform<Inner, Inner>?) {
        edgeLock.lock()
        let previous = follower
        let previousIsLinked = isFollowerLinked
        follower = newFollower
        isFollowerLinked = newFollower == nil
        edgeLock.unlock()
        if previousIsLinked { previous?.detach() }
    }

    override func toDidChange() {
        if to == nil { detachFollower() }
    }

    /// A re-pointed `from` drops the inner node the old one picked, even when the new one is empty (and so pushes
    /// nothing that would replace it): the output follows only what its current `from` picks.
    override func fromDidChange() {
        detachFollower()
    }

    private func detachFollower() {
        replaceFollower(with: nil)
    }
}

extension Node {
    /// For a node of nodes: a node that always follows the latest inner node (`flatten`). An empty inner node
    /// empties the result.
    @inlinable
    public final func flatten<Inner: Sendable>() -> Node<Inner> where Value == Node<Inner> {
        derive("flatten", FlattenTransform<Node<Inner>, Inner> { $0 })
    }

    /// `map(transform).flatten()` (`flattenMap:`): each value picks the node to follow next. One transform does
    /// both, with no node in between holding the picked node.
    @inlinable
    public final func flattenMap<Inner: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Node<Inner>
    ) -> Node<Inner> {
        derive("flattenMap", FlattenTransform(select: transform))
    }

    /// ``flattenMap(_:)`` under the name it has on signals and in Rx: switch to the latest inner node.
    @inlinable
    public final func flatMapLatest<Inner: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Node<Inner>
    ) -> Node<Inner> {
        flattenMap(transform)
    }
}
