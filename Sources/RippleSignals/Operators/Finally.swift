extension Signal {
    /// Runs `action` once the subscription ends: after the downstream error or completion callback, or on disposal,
    /// or when the subscription is released — exactly once, whichever comes first.
    public func finally(_ action: @escaping @Sendable () -> Void) -> Signal {
        Signal { downstream in
            let upstream = subscribe(Subscriber(
                value: downstream.send,
                error: downstream.sendError,
                complete: downstream.sendComplete))
            // The downstream subscriber runs this cleanup right after its terminal callback, or on disposal.
            return Disposer {
                upstream.dispose()
                action()
            }
        }
    }
}
