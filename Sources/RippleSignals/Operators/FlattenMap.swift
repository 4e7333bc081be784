import RippleCore

extension Signal {
    /// Maps each value to a signal, subscribes to it, and forwards the values of every inner signal.
    ///
    /// The first error, from the source or any inner signal, ends the result and disposes the rest. The result
    /// completes once the source *and* every inner signal have completed (GYSignal completes on the first one).
    public func flattenMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        Signal<Output, Failure> { downstream in
            let group = CompletionGroup<Output, Failure>(downstream: downstream)
            // `downstream` serialises what the inner signals send from any thread, so they are attached with raw
            // callbacks. `sendError` is shared with the source; the value callback is made per subscribed inner
            // signal, so a subscription whose inners are all `just` (delivered inline) never makes it.
            let sendError: @Sendable (Failure) -> Void = { downstream.sendError($0) }
            let outer = subscribe(Subscriber(
                value: { value in
                    let inner = transform(value)
                    if let just = inner.justValue {
                        // Sends and completes at once: no member to enter or leave, nothing to subscribe. After
                        // disposal `downstream` is closed (before its cleanup disposes the group) and drops it.
                        downstream.send(just)
                        return
                    }
                    guard let id = group.enter() else { return }
                    let disposer = inner.attach(value: { downstream.send($0) }, error: sendError,
                                                complete: { group.leave(id) })
                    group.store(disposer, for: id)
                },
                error: sendError,
                complete: { group.leave(CompletionGroup<Output, Failure>.sourceID) }))
            group.store(outer, for: CompletionGroup<Output, Failure>.sourceID)
            return Disposer(resource: group)
        }
    }
}
