import RippleCore

let transformCounter = LiveObjectCounter("Transform")

/// An edge from one node to another: values of `from` reach `to` through ``next(_:senders:context:)``.
///
/// `from` is held strongly and `to` without owning it, while `to` holds the transform: downstream owns upstream. Setting `from`
/// or `to` relinks (nil unlinks); once both ends are set, `from`'s current value is pushed. Subclass it for a custom
/// transform: override ``next(_:senders:context:)`` and call ``emit(_:senders:context:)`` for what should reach `to`.
///
/// `@unchecked Sendable`: `fromStorage`, `toTarget`, the registration and `nameStorage` are only touched
/// under `edgeLock`; `push` is set only while initialising.
@_fixed_layout
open class Transform<Input: Sendable, Output: Sendable>: DownstreamEdge, UpstreamEdge, @unchecked Sendable {
    @usableFromInline final let edgeLock = RawLock()
    /// Counts the links and unlinks this transform was told to make (`from`, `to`, `linkUnused`), so the unlink of a
    /// freed `to`, deferred to a later job while its graph is busy, can tell whether the transform was linked again
    /// since: it then leaves that link alone. Beside the lock word, in what would be padding on Linux.
    @exclusivity(unchecked) private var linkEdits: UInt32 = 0
    // Guarded by `edgeLock`, so the dynamic exclusivity checks are turned off.
    @exclusivity(unchecked) private var fromStorage: Node<Input>?
    /// `to`, not owned (see `TargetRef`: a weak reference would slow every release of the node).
    @usableFromInline @exclusivity(unchecked) final var toTarget: TargetRef?
    @exclusivity(unchecked) private var nameStorage: String?
    /// The node whose downstream list holds this transform: `from`, while `to` is set too.
    @exclusivity(unchecked) private var registeredIn: Node<Input>?
    /// The `to` that registration's slot carries.
    @exclusivity(unchecked) private var registeredTo: UnsafeMutableRawPointer?
    /// That slot, unretained (`registeredIn`'s list holds it), so unlinking finds it in O(1).
    @exclusivity(unchecked) private var registeredSlot: Unmanaged<AnyObject>?
    /// How `from` pushes a value into this transform. Set only while initialising (a built-in operator's init
    /// replaces it), before the transform can be linked or shared; linking copies it into `from`'s list.
    @usableFromInline @exclusivity(unchecked) final var push: PushThunk<Input>
    /// `DownstreamSlot<Input>`, taken where `Input` is concrete: linking runs unspecialised, and naming the generic
    /// type there looks its metadata up (~330 instructions per link).
    @usableFromInline final let slotType: DownstreamSlot<Input>.Type

    @inlinable
    public init() {
        slotType = DownstreamSlot<Input>.self
        // Built here, where `Input` and `Output` are concrete in the caller's module: a plain `Transform` (a pass
        // through) then hops fully specialised; a subclass's `next` is reached through the class's vtable.
        if Input.self == Output.self && Swift.type(of: self) == Transform<Input, Output>.self {
            push = { _, target, value, senders, context in
                // `Input == Output` here: the cast folds away once specialised.
                Transform<Input, Output>.emit(value as! Output, into: target, senders: senders,
                                              context: context)
            }
        } else {
            push = { edge, _, value, senders, context in
                unsafeDowncast(edge.takeUnretainedValue(), to: Transform<Input, Output>.self)
                    .next(value, senders: senders, context: context)
            }
        }
        Transform.didCreate()
    }

    @usableFromInline
    static func didCreate() {
        transformCounter.increment()
    }

    deinit {
        transformCounter.decrement()
    }

    /// The debugging name; operators name their transforms after themselves.
    public final var name: String? {
        get { edgeLock.withLock { nameStorage } }
        set { edgeLock.withLock { nameStorage = newValue } }
    }

    /// The upstream node, held strongly. Re-pointing it resets counting transforms (`skip`, `take`, `scan`).
    public final var from: Node<Input>? {
        get { edgeLock.withLock { fromStorage } }
        set { setFrom(newValue, api: "Transform.from") }
    }

    /// The downstream node, not owned (it holds this transform); nil once it is freed.
    public final var to: Node<Output>? {
        get { edgeLock.withLock { loadTo() } }
        set { setTo(newValue, api: "Transform.to") }
    }

    public final var fromNode: (any GraphNode)? { from }
    public final var toNode: (any GraphNode)? { to }

    /// Handles one value of `from`. The default passes it on unchanged when `Input == Output`; subclasses override.
    open func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        guard Input.self == Output.self else {
            programmerError("Transform<\(Input.self), \(Output.self)> must override next(_:senders:context:)")
        }
        emit(value as! Output, senders: senders, context: context)
    }

    /// For an operator whose hop runs through its specialised `push` thunk: `next` (what linking calls, through the
    /// vtable) goes through the thunk too, so both paths run the same code.
    @inlinable
    final func nextThroughPush(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        guard let output = to else { return }
        push(Unmanaged.passUnretained(self), Unmanaged.passUnretained(output), value, senders, context)
        extendLifetime(output)
    }

    /// Pushes `value` into `to` in the running transaction: `to` settles once every upstream changing in it has
    /// (see `CycleRule.swift` for a `to` already set in it).
    @inlinable
    public final func emit(_ value: Output, senders: SenderList, context: (any Sendable)?) {
        edgeLock.lock()
        let target = toTarget?.retained()
        edgeLock.unlock()
        guard let target else { return }
        Transform.emit(value, into: target, senders: senders, context: context)
        target.release()
    }

    /// Replaces `to`'s reference. Call under `edgeLock`.
    private func setTarget(_ node: Node<Output>?) {
        if let node { toTarget = TargetRef(node, serial: node.serial) } else { toTarget = nil }
    }

    /// `to`, retained, or nil when unset or already deinitialising. Call under `edgeLock`; release the result
    /// after unlocking (it may be the last reference).
    @inlinable
    final func loadTo() -> Node<Output>? {
        guard let retained = toTarget?.retained() else { return nil }
        return unsafeDowncast(retained.takeRetainedValue(), to: Node<Output>.self)
    }

    /// `emit` once `to` is known: the built-in operators' push thunks get it from the slot of `from`'s edge list.
    @inlinable @inline(__always)
    static func emit(_ value: Output, into target: Unmanaged<AnyObject>, senders: SenderList,
                     context: (any Sendable)?) {
        emitValue(value, into: target, senders: senders, context: context)
    }

    /// Pushes `value` into `to` later, on whatever thread calls this, continuing the sender list kept before a
    /// scheduler hop.
    public final func emit(_ value: Output, after senders: SenderSnapshot, context: (any Sendable)?) {
        guard let target = to else { return }
        target.resumePropagation(value, context: context, senders: senders)
    }

    /// Empties `to` without telling anyone (used by `flatten` when the inner node is empty).
    final func cleanTarget() {
        to?.cleanStorage()
    }

    public final func detach() {
        setTo(nil, api: "Transform.detach()")
        setFrom(nil, api: "Transform.detach()")
    }

    /// Called after `from` changed (including to nil); counting transforms reset here.
    func fromDidChange() {}

    /// Called after `to` changed (including to nil).
    func toDidChange() {}

    // The link/unlink paths below run unspecialised (they are reached through the class's vtable and from
    // `Node.deinit`): explicit lock/unlock rather than `withLock` closures returning tuples, and no `Optional.map`,
    // since each of those costs generic metadata look-ups in unspecialised code.

    /// Re-points `from` with the domains of both ends held (see `Domain.swift`): the link and the push of the
    /// current value are one step of the graph's serial order.
    final func setFrom(_ newValue: Node<Input>?, api: String) {
        let other = to
        PropagationState.current.takeUnretainedValue().withDomains(domainEnds(newValue, other)) { [self] in
            setFromHeld(newValue, api: api)
        }
        // As `AnyObject?`: a `Node<Output>?` here, where `Output` is generic, looked two metadata up (~890
        // instructions per relink; one per `flattenMap` level and value in FlatMapLatestPumping).
        extendLifetime(other as AnyObject?)
    }

    /// The nodes a link between `source` and `target` touches: both, and the node whose list holds this transform
    /// now (it is `to`'s graph while `to` lives, but a `to` being freed reads as nil, and unlinking still edits that
    /// list, under its domain).
    private func domainEnds(_ source: Node<Input>?, _ target: Node<Output>?) -> LinkEnds {
        var ends = LinkEnds()
        if let source { ends.append(source) }
        if let target { ends.append(target) }
        edgeLock.lock()
        let registered = registeredIn
        edgeLock.unlock()
        if let registered, registered !== source { ends.append(registered) }
        return ends
    }

    private func setFromHeld(_ newValue: Node<Input>?, api: String) {
        edgeLock.lock()
        let target = loadTo()
        let isSelfLink = newValue != nil && target != nil && ObjectIdentifier(newValue!) == ObjectIdentifier(target!)
        var old: Node<Input>? = nil
        if !isSelfLink {
            old = fromStorage
            fromStorage = newValue
            linkEdits &+= 1
        }
        edgeLock.unlock()
        if isSelfLink {
            programmerError("\(api) cannot link node '\(target!.name ?? "undefined")' to itself")
        }
        if old === newValue { return }
        reconcileRegistration()
        fromDidChange()
        if let newValue, target != nil { newValue.pushCurrentValue(along: self) }
        extendLifetime(old as AnyObject?)
        extendLifetime(target as AnyObject?)
    }

    /// Re-points `to` with the domains of both ends held (see ``setFrom(_:api:)``).
    final func setTo(_ newValue: Node<Output>?, api: String) {
        let other = from
        PropagationState.current.takeUnretainedValue().withDomains(domainEnds(other, newValue)) { [self] in
            setToHeld(newValue, api: api)
        }
        extendLifetime(other as AnyObject?)
    }

    private func setToHeld(_ newValue: Node<Output>?, api: String) {
        edgeLock.lock()
        let source = fromStorage
        let isSelfLink = newValue != nil && source != nil && ObjectIdentifier(newValue!) == ObjectIdentifier(source!)
        var old: Node<Output>? = nil
        // The node may hold the last reference to this transform: keep it alive until we are done.
        var removed: UpstreamEdges? = nil
        if !isSelfLink {
            old = loadTo()
            setTarget(newValue)
            linkEdits &+= 1
            // Under the edge lock (edge lock, then node lock), so that two threads re-pointing this transform change
            // the nodes' upstream lists in the order they changed `to`: outside it, a `to = nil` could run its
            // removal before the earlier `to = node` added the edge, leaving a stale edge that kept this transform
            // and its source alive.
            if old !== newValue {
                removed = old?.removeUpstreamEdge(ObjectIdentifier(self))
                if let newValue { newValue.addUpstream(self) }
            }
        }
        edgeLock.unlock()
        if isSelfLink {
            programmerError("\(api) cannot link node '\(source!.name ?? "undefined")' to itself")
        }
        if old === newValue { return }
        reconcileRegistration()
        toDidChange()
        if newValue != nil, let source { source.pushCurrentValue(along: self) }
        // `old` too: its last release may run a node's deinit, which must not happen under the edge lock. Each on its
        // own, `old` as `AnyObject?`: a `(UpstreamEdges?, Node<Output>?)` looked its metadata up (see `setFrom`).
        extendLifetime(removed)
        extendLifetime(old as AnyObject?)
    }

    /// `to` was freed: unlink from `from` too, so nothing keeps the upstream alive on this edge's behalf.
    ///
    /// `setTo(nil)` and `setFrom(nil)` in one pass (what unlinking does, without re-reading both ends twice): every
    /// node of a dropped chain runs this once per upstream transform. The slot leaves `from`'s list under the graph's
    /// domain (see `EdgeStore.swift`); when this thread runs a transaction of another graph that is busy, later, as a
    /// job (the slot's target reads nil meanwhile, so nothing is pushed into the freed node).
    @usableFromInline
    final func targetDidDeinit() {
        edgeLock.lock()
        let edits = linkEdits
        // The freed node's address may come back as a node this transform is linked to before a deferred unlink
        // runs: forgotten now, that link makes a new slot instead of keeping the one that points at the freed node.
        registeredTo = nil
        edgeLock.unlock()
        unlinkFreedTarget(ifUnchangedSince: edits)
    }

    /// ``targetDidDeinit()``'s unlink, unless the transform was linked or unlinked since `edits` (then that is the
    /// latest word on its ends); again later, as a job, while `from`'s graph is busy.
    private func unlinkFreedTarget(ifUnchangedSince edits: UInt32) {
        // `from`'s node, retained as a raw reference: a strong local could be the last reference when it goes out
        // of scope, and its deinit would then recurse instead of going through the drain.
        var source: Unmanaged<Node<Input>>? = nil
        edgeLock.lock()
        if let registered = registeredIn { source = .passRetained(registered) }
        edgeLock.unlock()
        guard let source else {
            releaseUnlinked(unlinkDeadTarget(ifUnchangedSince: edits))
            return
        }
        var unlinked = UnlinkedEnds()
        let done = source._withUnsafeGuaranteedRef { node in
            node.withEdgeDomain { unlinked = unlinkDeadTarget(ifUnchangedSince: edits) }
        }
        if done {
            releaseUnlinked(unlinked)
        } else {
            PropagationState.current.takeUnretainedValue().queueJob { [self] in
                unlinkFreedTarget(ifUnchangedSince: edits)
            }
        }
        ReleaseDrain.release(retained: source.toOpaque())
    }

    /// What ``unlinkDeadTarget()`` let go of, as retained raw pointers.
    private struct UnlinkedEnds {
        var source: UnsafeMutableRawPointer?
        var registered: UnsafeMutableRawPointer?
    }

    /// Forgets both ends and leaves `from`'s list, unless the transform was linked or unlinked since `edits`. Call
    /// holding `from`'s domain (when registered).
    private func unlinkDeadTarget(ifUnchangedSince edits: UInt32) -> UnlinkedEnds {
        edgeLock.lock()
        guard linkEdits == edits else {
            edgeLock.unlock()
            return UnlinkedEnds()
        }
        // A freed `to` reads as nil, as a weak reference would; drop the reference that kept its memory.
        setTarget(nil)
        // Both references leave as raw retained pointers: converting a `Node<Input>?` to `AnyObject?` here, where
        // `Input` is generic, looked the node type's metadata up (~330 instructions per freed operator).
        var unlinked = UnlinkedEnds()
        if let from = fromStorage { unlinked.source = Unmanaged.passRetained(from).toOpaque() }
        fromStorage = nil
        if let registered = registeredIn {
            // Under the edge lock, as in `reconcileRegistration()`: edge lock, then node lock.
            registered.removeDownstreamEdge(ObjectIdentifier(self), slot: registeredSlot)
            unlinked.registered = Unmanaged.passRetained(registered).toOpaque()
        }
        registeredIn = nil
        registeredTo = nil
        registeredSlot = nil
        edgeLock.unlock()
        return unlinked
    }

    /// Runs the hook and releases what ``unlinkDeadTarget()`` let go of, outside every lock.
    private func releaseUnlinked(_ unlinked: UnlinkedEnds) {
        if unlinked.source != nil { fromDidChange() }
        // `from` may now be unreferenced, and its own deinit would free its upstream, and so on: through the drain.
        ReleaseDrain.release(retained: unlinked.registered)
        ReleaseDrain.release(retained: unlinked.source)
    }

    /// Links this transform, which must be unused, from `source` to `target` in one pass: what `setTo` then
    /// `setFrom` do (the same hooks, in the same order, then the push of `source`'s current value), without their
    /// re-reads and relink checks. Every operator links a new transform this way.
    /// `copy` copies `source`'s current value out (see `CurrentValueCopy`); nil for the generic copy.
    final func linkUnused(from source: Node<Input>, to target: Node<Output>,
                          copyingCurrent copy: CurrentValueCopy<Input>?) {
        let state = PropagationState.current.takeUnretainedValue()
        // Through `runWithDomains`, whose closure does not escape: through `withDomains`, every link allocated the
        // closure's context, for the rare link that waits as a job.
        let ran = state.runWithDomains(LinkEnds(source, target)) {
            linkUnusedHeld(from: source, to: target, copyingCurrent: copy)
        }
        if !ran {
            state.queueJob { [self] in linkUnused(from: source, to: target, copyingCurrent: copy) }
        }
    }

    private func linkUnusedHeld(from source: Node<Input>, to target: Node<Output>,
                                copyingCurrent copy: CurrentValueCopy<Input>?) {
        edgeLock.lock()
        // `serial`, not the reference: `toTarget != nil` copied the weak reference to compare it (~160 instructions).
        if fromStorage != nil || toTarget?.serial != nil {
            let name = nameStorage
            edgeLock.unlock()
            programmerError("Node.link(to:transform:) needs an unused transform, but '\(name ?? "undefined")' is already linked")
        }
        fromStorage = source
        setTarget(target)
        linkEdits &+= 1
        edgeLock.unlock()
        target.addUpstream(self)
        toDidChange()
        registerUnused(from: source, to: target)
        fromDidChange()
        source.pushCurrentValue(along: self, into: target, copyingCurrent: copy)
    }

    /// `reconcileRegistration()` for a transform just linked by ``linkUnused(from:to:)``: both ends are known and
    /// held by the caller, so no re-read, no upgrade of `to` and no old registration to remove, unless another
    /// thread relinked the transform meanwhile (then the general path sorts it out).
    private func registerUnused(from source: Node<Input>, to target: Node<Output>) {
        let targetAddress = Unmanaged.passUnretained(target).toOpaque()
        let isBackEdge = source.rankNewEdge(to: target)
        edgeLock.lock()
        guard registeredIn == nil, fromStorage === source, toTarget?.serial == target.serial else {
            edgeLock.unlock()
            reconcileRegistration()
            return
        }
        // Under the edge lock, as in `reconcileRegistration()`: edge lock, then node lock.
        let slot = slotType.init(edge: self, target: target, serial: target.serial, push: push, isBackEdge: isBackEdge)
        source.addDownstream(.passUnretained(slot))
        registeredIn = source
        registeredTo = targetAddress
        registeredSlot = .passUnretained(slot)
        edgeLock.unlock()
    }

    /// Keeps this transform in `from`'s downstream list exactly while both ends are set. The list holds it strongly
    /// (no weak reference on the hot path); the cycle `from` → transform → `from` lasts only while `to` lives, and
    /// `to`'s deinit or an unlink breaks it. Runs under `edgeLock` (edge lock, then node lock; never the reverse) so
    /// concurrent relinks cannot reorder the add and the remove.
    private func reconcileRegistration() {
        edgeLock.lock()
        // `to`, retained (released after unlocking: it may be the last reference).
        let target = toTarget?.retained()
        let wanted = target == nil ? nil : fromStorage
        let previous = registeredIn
        let targetAddress = target?.toOpaque()
        // The slot carries `to` as well, so a new `to` means a new slot.
        if wanted !== previous || targetAddress != registeredTo {
            previous?.removeDownstreamEdge(ObjectIdentifier(self), slot: registeredSlot)
            registeredSlot = nil
            if let wanted, let target {
                let node = unsafeDowncast(target.takeUnretainedValue(), to: Node<Output>.self)
                let isBackEdge = wanted.rankNewEdge(to: node)
                let slot = slotType.init(edge: self, target: node, serial: node.serial, push: push,
                                         isBackEdge: isBackEdge)
                wanted.addDownstream(.passUnretained(slot))
                registeredSlot = .passUnretained(slot)
            }
            registeredIn = wanted
            registeredTo = wanted == nil ? nil : targetAddress
        }
        edgeLock.unlock()
        target?.release()
        extendLifetime(previous as AnyObject?)
    }
}

/// `Transform.emit(_:into:senders:context:)`, as a free function: unspecialised, calling a static method of
/// `Transform<Input, Output>` looks its metadata up first.
@inlinable @inline(__always)
func emitValue<Output: Sendable>(_ value: Output, into target: Unmanaged<AnyObject>, senders: SenderList,
                                 context: (any Sendable)?) {
    // The caller keeps the target alive and the thread keeps its state: borrow both, no retain per hop.
    target._withUnsafeGuaranteedRef { object in
        senders.stateRef._withUnsafeGuaranteedRef { state in
            unsafeDowncast(object, to: Node<Output>.self).receive(value, context: context, state: state)
        }
    }
}
