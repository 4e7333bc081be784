import RippleCore

extension Signal {
    /// Ignores the source's values; when the source completes, subscribes to `next` and forwards its events.
    /// An error from the source is forwarded and `next` is never subscribed.
    public func then<Output: Sendable>(_ next: Signal<Output, Failure>) -> Signal<Output, Failure> {
        let upstream = asUpstream
        let next = next.asUpstream
        return Signal<Output, Failure>(depth: max(depthAbove, next.depthAbove)) { downstream in
            let serial = SerialDisposer()
            let first = upstream.subscribe(SignalSubscriber(
                value: nil,
                error: downstream.sendError,
                complete: {
                    // Subscribed at the downstream's level at least (see `SubscriptionTrampoline`).
                    serial.replace(with: subscribing(above: downstream.level) {
                        next.subscribe(SignalSubscriber(
                            value: downstream.send,
                            error: downstream.sendError,
                            complete: downstream.sendComplete))
                    })
                }))
            serial.keepFirst(first)
            return Disposer { serial.dispose() }
        }
    }
}

/// Holds the current subscription of a sequence of subscriptions. `@unchecked Sendable`: state guarded by `lock`.
final class SerialDisposer: @unchecked Sendable {
    private let lock = Lock()
    private var current: Disposer?
    private var replaced = false
    private var disposed = false

    /// Keeps `disposer` unless a later subscription already replaced it.
    func keepFirst(_ disposer: Disposer) {
        let dispose = lock.withLock { () -> Bool in
            if disposed { return true }
            if !replaced { current = disposer }
            return false
        }
        if dispose { disposer.dispose() }
    }

    func replace(with disposer: Disposer) {
        let dispose = lock.withLock { () -> Bool in
            if disposed { return true }
            replaced = true
            current = disposer
            return false
        }
        if dispose { disposer.dispose() }
    }

    func dispose() {
        let taken = lock.withLock { () -> Disposer? in
            disposed = true
            defer { current = nil }
            return current
        }
        taken?.dispose()
    }
}
