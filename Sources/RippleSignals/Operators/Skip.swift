import RippleCore

extension Signal {
    /// Drops the first `count` values, then forwards the rest. The count is per subscription.
    public func skip(_ count: Int) -> Signal {
        requireNonNegative(count, "Signal.skip(_:)")
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let remaining = Counter(count)
            return upstream.subscribe(SignalSubscriber(
                value: { value in
                    if remaining.value > 0 {
                        remaining.value -= 1
                    } else {
                        downstream.send(value)
                    }
                },
                error: downstream.sendError,
                complete: downstream.sendComplete))
        }
    }
}
