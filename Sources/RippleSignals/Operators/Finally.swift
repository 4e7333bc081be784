extension Signal {
    /// Runs `action` once the subscription ends: after the downstream error or completion callback, or on disposal,
    /// or when the subscription is released — exactly once, whichever comes first.
    public func finally(_ action: @escaping @Sendable () -> Void) -> Signal {
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let upstream = source.subscribe(SignalSubscriber(
                value: downstream.send,
                error: downstream.sendError,
                complete: downstream.sendComplete))
            // The downstream subscriber runs this cleanup right after its terminal callback, or on disposal. The
            // action runs before the upstream is released, so in `a.finally(f1)….finally(f2)` f2 runs before f1,
            // the order in which the terminal event passed them, innermost downstream first.
            return Disposer {
                action()
                upstream.dispose()
            }
        }
    }
}
