import RippleCore
import Synchronization

extension Node {
    /// Starts describing a listener owned by `owner`: the listen edge lives in `owner.cancelBag` and stops when the
    /// owner (and so its bag) goes away.
    ///
    /// ```swift
    /// node.listened(by: bag).withBlock { print("next is \($0)") }
    /// ```
    public final func listened(by owner: some ListenerOwner) -> Listening<Value> {
        Listening(node: self, bag: owner.cancelBag)
    }

    /// Attaches `edge` and delivers the current value: the read and the attach are one critical section, so no
    /// set falls between them (a set before it is in the value read, a set after it reaches the edge), and a value
    /// a propagation brings while the current one is being delivered is handed over and delivered after it.
    // Inlinable: unspecialised, handing the edge to the bag as `any CancelToken` looks up `ListenEdge<Value>`'s
    // generic metadata (~330 instructions per listener), and so does reading a `Value?`.
    ///
    /// From a transform of another graph whose domain is busy, the attach waits for the end of the running
    /// transaction (a later transaction, like a set from a transform): `bag` holds the edge at once, and a cancel
    /// before then means it is never attached.
    @inlinable
    final func attachDeliveringCurrent(_ edge: ListenEdge<Value>, bag: CancelBag?) {
        // Under the node's domain (see `Domain.swift`): no transaction is half-way, so the value read is a committed
        // one, and every later transaction reaches the edge.
        let state = threadState.takeUnretainedValue()
        var root: Domain? = nil
        if let held = state.held {
            guard joinDomainIfFree(held) else {
                bag?.insert(edge)
                state.queueJob { [self] in attachDeliveringCurrent(edge, bag: nil) }
                return
            }
        } else {
            root = lockOwnDomain()
            state.held = root
        }
        lock.lock()
        // A deferred attach (no bag) of an edge cancelled meanwhile: the cancel found nothing to remove.
        if bag == nil && edge.isCancelled {
            lock.unlock()
            if let root { state.held = nil; root.unlock() }
            return
        }
        let current = storage
        if current != nil {
            edge.handoffLock.withLock { edge.delivering = true }
            edge.callState.bitwiseOr(ListenEdge<Value>.deliveringFirstBit, ordering: .relaxed)
        }
        let released = insertListener(edge)
        lock.unlock()
        if let root {
            state.held = nil
            root.unlock()
        }
        extendLifetime(released)
        bag?.insert(edge)
        guard var next = current else { return }
        var context: (any Sendable)? = nil
        while true {
            if edge.callState.load(ordering: .acquiring) & ListenEdge<Value>.detachedBit == 0 {
                edge.action(next, context)
            }
            edge.handoffLock.lock()
            guard let handed = edge.handoff else {
                edge.delivering = false
                edge.callState.bitwiseAnd(~ListenEdge<Value>.deliveringFirstBit, ordering: .relaxed)
                edge.handoffLock.unlock()
                return
            }
            edge.handoff = nil
            edge.handoffLock.unlock()
            let box = unsafeDowncast(handed, to: Handoff<Value>.self)
            next = box.value
            context = box.context
        }
    }
}

/// What `node.listened(by: owner)` returns: pick how the listener is called. Every variant delivers the current
/// value at once (if any), then every later value; empty values are never delivered.
public struct Listening<Value: Sendable> {
    @usableFromInline let node: Node<Value>
    @usableFromInline let bag: CancelBag

    @usableFromInline
    init(node: Node<Value>, bag: CancelBag) {
        self.node = node
        self.bag = bag
    }

    /// Calls `block` with each value, on the setter's thread.
    // Inlinable, like `withContextBlock`: a listener is built specialised in the client.
    @inlinable @discardableResult
    public func withBlock(_ block: @escaping @Sendable (Value) -> Void) -> any CancelToken {
        withContextBlock { value, _ in block(value) }
    }

    /// Calls `block` with each value and the context it was set with (nil for the initial value).
    // Inlinable: unspecialised, building a listener costs generic metadata look-ups (`ListenEdge<Value>`, `Value?`).
    @inlinable @discardableResult
    public func withContextBlock(_ block: @escaping @Sendable (Value, (any Sendable)?) -> Void) -> any CancelToken {
        withContextBlock(wantsSenders: false, block)
    }

    @inlinable
    func withContextBlock(wantsSenders: Bool,
                          _ block: @escaping @Sendable (Value, (any Sendable)?) -> Void) -> any CancelToken {
        let edge = ListenEdge(node: node, action: block)
        edge.wantsSenders = wantsSenders
        node.attachDeliveringCurrent(edge, bag: bag)
        return edge
    }

    /// Calls `block` through `scheduler` (`.main`, `.queue(q)`, a `TestScheduler`, …), in setting order.
    @discardableResult
    public func withBlock(on scheduler: some Scheduling, _ block: @escaping @Sendable (Value) -> Void) -> any CancelToken {
        withContextBlock(on: scheduler) { value, _ in block(value) }
    }

    /// The context-carrying form of `withBlock(on:_:)`.
    @discardableResult
    public func withContextBlock(on scheduler: some Scheduling,
                                 _ block: @escaping @Sendable (Value, (any Sendable)?) -> Void) -> any CancelToken {
        // Each call waits in the hand-off: `Scheduling` promises no order between two pieces of work (a concurrent
        // queue may run the later first), so the n-th piece of work to run makes the n-th call (see
        // `ScheduledHandOff`).
        let handOff = ScheduledHandOff<ScheduledCall<Value>>()
        return withContextBlock { value, context in
            guard handOff.enqueue(ScheduledCall(value: value, context: context)) else { return }
            scheduler.schedule { handOff.deliverDue { block($0.value, $0.context) } }
        }
    }

    /// Calls `block` with `target` and each value while `target` lives; `target` is held weakly, so there is no
    /// weakify/strongify dance (EasyReact's `withSelector:`). The listener cancels itself once `target` is gone.
    @discardableResult
    public func withTarget<Target: AnyObject & Sendable>(
        _ target: Target, _ block: @escaping @Sendable (Target, Value) -> Void
    ) -> any CancelToken {
        withTarget(target) { target, value, _ in block(target, value) }
    }

    /// ``withTarget(_:_:)`` with the context too (the two-argument form of EasyReact's `withSelector:`): calls
    /// `block` with `target`, each value and its context while `target` lives.
    @discardableResult
    public func withTarget<Target: AnyObject & Sendable>(
        _ target: Target, _ block: @escaping @Sendable (Target, Value, (any Sendable)?) -> Void
    ) -> any CancelToken {
        let slot = CancelSlot()
        let edge = withContextBlock { [weak target] value, context in
            guard let target else {
                slot.cancel()
                return
            }
            block(target, value, context)
        }
        slot.set(edge)
        return edge
    }
}

/// Lets a listener cancel its own edge once it exists. `@unchecked Sendable`: `edge` is only touched under `lock`.
private final class CancelSlot: @unchecked Sendable {
    private let lock = Lock()
    private weak var edge: AnyObject?
    private var cancelEarly = false

    func set(_ cancellable: any CancelToken) {
        let early = lock.withLock { () -> Bool in
            edge = cancellable as AnyObject
            return cancelEarly
        }
        if early { cancellable.cancel() }
    }

    func cancel() {
        let target = lock.withLock { () -> AnyObject? in
            if edge == nil { cancelEarly = true }
            return edge
        }
        (target as? any CancelToken)?.cancel()
    }
}

/// A listener call waiting for its scheduled work (see `Listening.withContextBlock(on:_:)`).
struct ScheduledCall<Value: Sendable>: Sendable {
    let value: Value
    let context: (any Sendable)?
}
