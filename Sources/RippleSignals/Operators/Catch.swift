import RippleCore

// Invariants: values and completion of the source pass through; on the source's error, `handler`'s signal is
// subscribed (once, from inside the error callback) and its events are forwarded, so the result fails only if the
// replacement does. Disposal ends whichever subscription is current. The subscriptions' callbacks own the downstream;
// the cleanup owns only their disposers, so a producer that lets go unended frees the chain.

extension Signal {
    /// On error, continues with the signal `handler` returns for it (Combine's `catch`): its values follow the
    /// source's, and its error or completion ends the result.
    ///
    /// ```swift
    /// fetch(query).catch { _ in .just(cachedResult) }   // Signal<Result, Never>
    /// ```
    public func `catch`<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        catching(handler)
    }

    /// The body of both `catch` overloads.
    func catching<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        // `handler` is held, so that a nest of handlers capturing signals is freed counted (see HeldClosure.swift).
        let source = asUpstream
        let held = HeldClosure(handler)
        return Signal<Value, NewFailure>(depth: depthAbove) { downstream in
            let handler = held.closure
            let serial = SerialDisposer()
            let first = source.attach(
                value: { downstream.send($0) },
                error: { error in
                    // Disposed before this subscription's cleanup was attached (by a `take` below, from inside the
                    // source's action): neither the handler nor its replacement may run after the end.
                    if downstream.isDisposed { return }
                    // Subscribed at the downstream's level at least (see `SubscriptionTrampoline`).
                    serial.replace(with: subscribing(above: downstream.level) {
                        handler(error).attach(
                            value: { downstream.send($0) }, error: { downstream.sendError($0) },
                            complete: { downstream.sendComplete() })
                    })
                },
                complete: { downstream.sendComplete() })
            serial.keepFirst(first)
            return Disposer { serial.dispose() }
        }
    }

    /// `catch(_:)` with a replacement that cannot fail, so that `.catch { _ in .just(fallback) }` needs no type
    /// annotation.
    public func `catch`(_ handler: @escaping @Sendable (Failure) -> Signal<Value, Never>) -> Signal<Value, Never> {
        catching(handler)
    }
}
