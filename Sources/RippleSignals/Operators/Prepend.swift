// Invariants: every subscription first receives `values`, in order and synchronously while subscribing, then the
// source's events; the source is not subscribed if the subscription was disposed meanwhile.

extension Signal {
    /// Sends `values` first, then the source's events (Combine's `prepend`; Rx's `startWith`).
    public func prepend(_ values: Value...) -> Signal {
        prepend(values)
    }

    /// Sends the elements of `values` first, then the source's events.
    public func prepend<Elements: Sequence & Sendable>(_ values: Elements) -> Signal where Elements.Element == Value {
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            for value in values {
                downstream.send(value)
                if downstream.isDisposed { return .empty }
            }
            return source.attach(value: { downstream.send($0) }, error: { downstream.sendError($0) },
                                 complete: { downstream.sendComplete() })
        }
    }
}
