import RippleCore

/// Follows the latest inner node: `select` picks it for each value (`flattenMap`; the identity for `flatten`), and
/// its values reach the output until the next one replaces it.
///
/// An inner node nobody else can reach (see `hasNoWeakOrUnownedReferences`) can never change again: its value is
/// taken and pushed as linking would push it, and no link is made. Otherwise a pass-through follower links it into
/// the output. Either way the previous follower is detached; so is it when `from` is re-pointed or unlinked.
///
/// `@unchecked Sendable`: `follower` and `isFollowerLinked` are only touched under `edgeLock`; `select` is
/// immutable.
@usableFromInline @_fixed_layout
final class FlattenTransform<Input: Sendable, Inner: Sendable>: Transform<Input, Inner>, @unchecked Sendable {
    @usableFromInline let select: @Sendable (Input) -> Node<Inner>
    /// The pass-through linking the current inner node into the output, if it needed one.
    @exclusivity(unchecked) private var follower: Transform<Inner, Inner>?
    /// False while the thread that made `follower` is still linking it. Only that thread may touch a follower
    /// until then (concurrent relinks of one transform can leave it in its `to`'s upstream list): whoever replaces
    /// an unlinked-yet follower leaves it to that thread, which detaches it once it finds it replaced.
    @exclusivity(unchecked) private var isFollowerLinked = true

    // Inlinable, so the push thunk is built where the types are concrete: taking an unreachable inner node's value
    // and pushing it into the output then run specialised in the client.
    @inlinable
    init(select: @escaping @Sendable (Input) -> Node<Inner>) {
        self.select = select
        super.init()
        // Nothing captured, so the thunk needs no context allocation; `select` read from the borrowed transform
        // costs no retain either (measured).
        push = { edge, target, value, senders, _ in
            edge._withUnsafeGuaranteedRef { object in
                let transform = unsafeDowncast(object, to: FlattenTransform<Input, Inner>.self)
                transform.follow(transform.select(value), into: target, senders: senders)
            }
        }
    }

    /// Linking pushes the upstream's current value through here (the class's vtable rather than the thunk).
    @usableFromInline
    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        nextThroughPush(value, senders: senders, context: context)
    }

    /// Switches the output to `inner`. `target` is the output, kept alive by the caller.
    @inlinable
    final func follow(_ inner: consuming Node<Inner>, into target: Unmanaged<AnyObject>, senders: SenderList) {
        // `consuming`, so the caller's reference is this one: a borrowed parameter copied into a variable would
        // count twice.
        var isFixed = false
        var value: Inner? = nil
        if isKnownUniquelyReferenced(&inner) && hasNoWeakOrUnownedReferences(inner) {
            // Nobody else holds `inner` or can ever reach it; without upstream edges nothing can change it either:
            // the value it holds now is the only one it will ever have.
            inner.lock.lock()
            isFixed = !inner.hasUpstream
            if isFixed { value = inner.storage }
            inner.lock.unlock()
        }
        guard isFixed else {
            link(inner, into: unsafeDowncast(target.takeUnretainedValue(), to: Node<Inner>.self),
                 follower: Transform<Inner, Inner>())
            return
        }
        replaceFollower(with: nil)
        guard let value else {
            // An empty inner node empties the output, as linking it would.
            target._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Node<Inner>.self).cleanStorage() }
            return
        }
        senders.stateRef._withUnsafeGuaranteedRef { state in
            pushAsLinking(value, into: target, state: state)
        }
        extendLifetime(inner)
    }

    /// Links `inner` into `output` through `newFollower`, replacing the previous follower. Runs once per reachable
    /// inner node; not inlined.
    @usableFromInline
    final func link(_ inner: Node<Inner>, into output: Node<Inner>, follower newFollower: Transform<Inner, Inner>) {
        if inner === output {
            let api = name == "flattenMap" ? "Node.flattenMap(_:)" : "Node.flatten()"
            programmerError("\(api) cannot follow its own output node '\(output.name ?? "undefined")'")
        }
        newFollower.name = "flatten.inner"
        replaceFollower(with: newFollower)
        // An empty inner node empties the output; a non-empty one pushes its value as the link is made.
        if inner.isEmpty { output.cleanStorage() }
        output.connect(inner, through: newFollower)
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

/// Whether nothing refers to `object` weakly or unowned (a property binding holds its node weakly, a transform its
/// `to` unowned). With only the caller holding it strongly (`isKnownUniquelyReferenced`) and, for a node, no
/// upstream edges that could still change it, nobody can ever set, link or read it again.
@usableFromInline
func hasNoWeakOrUnownedReferences(_ object: AnyObject) -> Bool {
    // An object counts 1 unowned reference (the one all strong references share) and reports a weak count of 1,
    // with or without a side table; `FlattenSpecialisationTests` pins these counts down.
    _getUnownedRetainCount(object) == 1 && _getWeakRetainCount(object) == 1
}

/// Pushes `value` into `target` as linking the inner node would (`Node.pushCurrentValue(along:)`): in a frame of its
/// own, with no context. Linking also blocks the node it pushes from; an unreachable inner node can never be pushed
/// into, so it is not blocked (its identifier could even be reused once it is freed).
@inlinable @inline(__always)
func pushAsLinking<Value: Sendable>(_ value: Value, into target: Unmanaged<AnyObject>, state: PropagationState) {
    state.inFrame {
        emitValue(value, into: target, senders: SenderList(state: state), context: state.noContext)
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
    /// both, with no node in between holding the picked node, so one nobody else holds is taken without a link.
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
