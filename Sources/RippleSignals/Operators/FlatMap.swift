import RippleCore

extension Signal {
    /// Maps each value to a signal, subscribes to it, and forwards the values of every inner signal.
    ///
    /// The first error, from the source or any inner signal, ends the result and disposes the rest. The result
    /// completes once the source *and* every inner signal have completed (GYSignal completes on the first one).
    @inlinable
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        mergingFlatMap(transform)
    }

    /// The body of every `flatMap` overload.
    @inlinable
    func mergingFlatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        // Inlinable so that the per-subscription state and its callbacks are specialised in the caller's module: no
        // generic metadata lookups when subscribing or per value.
        let upstream = asUpstream
        return Signal<Output, Failure>(depth: depthAbove) { downstream in
            let state = FlattenMapState(downstream: downstream, transform: transform)
            state.start(upstream)
            return state
        }
    }
}

/// One subscription of `flatMap`: the completion group of the source and the inner signals, the target of the
/// source's callbacks, and the disposer the action returns — one object, so the callbacks capture only it (a closure
/// capturing one object needs no allocation of its own).
///
/// `@unchecked Sendable`: `transform` is immutable; the group's state is guarded by its lock.
@usableFromInline @_fixed_layout
final class FlattenMapState<Input: Sendable, Output: Sendable, Failure: Error>: CompletionGroup<Output, Failure>,
    @unchecked Sendable
{
    @usableFromInline let transform: @Sendable (Input) -> Signal<Output, Failure>

    /// `downstream` is borrowed: the group keeps it unowned (see `CompletionGroup.init(downstream:)`).
    @inlinable
    init(downstream: borrowing SignalSubscriber<Output, Failure>,
         transform: @escaping @Sendable (Input) -> Signal<Output, Failure>) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    /// Subscribes to the source with raw callbacks (it keeps the grammar itself: a `just` or map/filter source then
    /// needs no subscriber of its own, two allocations fewer). Its callbacks hold this state and (the error callback)
    /// the downstream; the state holds only the subscriptions' disposers, so there is no cycle.
    @inlinable
    func start(_ upstream: Signal<Input, Failure>) {
        let downstream = self.downstream
        let source = upstream.attach(
            value: { self.receive($0) },
            error: { downstream.sendError($0) },
            // Not `Self.sourceID`: naming `Self` would capture the dynamic type too, and a closure capturing more
            // than one thing allocates a context.
            complete: { self.leaveSource() })
        storeSource(source)
    }

    /// A value of the source: its inner signal's events go to the downstream, which serialises what the inner
    /// signals send from any thread, so they are attached with raw callbacks.
    @inlinable
    func receive(_ value: Input) {
        let inner = transform(value)
        if let just = inner.justValue {
            // Sends and completes at once: no member to enter or leave, nothing to subscribe. After disposal
            // `downstream` is closed (before its cleanup disposes this group) and drops it.
            unownedDownstream.with { $0.send(just) }
            return
        }
        guard let id = enter() else { return }
        let downstream = self.downstream
        let disposer = inner.attach(value: { downstream.send($0) }, error: { downstream.sendError($0) },
                                    complete: { self.leave(id) })
        store(disposer, for: id)
    }
}

// Failure types as Combine mixes them: a source that cannot fail takes inner signals that can (`node.signal.flatMap
// { query in fetch(query) }`), and inner signals that cannot fail fit a source that can. The fourth overload, both
// `Never`, only settles which of the others applies.
extension Signal where Failure == Never {
    /// `flatMap(_:)` from a source that cannot fail into inner signals that can: the result fails with theirs.
    @inlinable
    public func flatMap<Output: Sendable, NewFailure: Error>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, NewFailure>
    ) -> Signal<Output, NewFailure> {
        setFailureType(to: NewFailure.self).mergingFlatMap(transform)
    }

    /// `flatMap(_:)` where neither the source nor the inner signals can fail.
    @inlinable
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Never> {
        mergingFlatMap(transform)
    }
}

extension Signal {
    /// `flatMap(_:)` into inner signals that cannot fail: only the source's error ends the result.
    ///
    /// Disfavoured so that an inner signal whose failure type is left to inference (`flatMap { .just($0) }`) takes
    /// the source's, as before this overload existed.
    @inlinable @_disfavoredOverload
    public func flatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Never>
    ) -> Signal<Output, Failure> {
        mergingFlatMap { transform($0).setFailureType(to: Failure.self) }
    }
}
