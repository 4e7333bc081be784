import RippleCore

extension Signal {
    /// Forwards the first `count` values, then completes at once and disposes the source.
    ///
    /// `take(0)` completes without subscribing to the source. The count is per subscription.
    public func take(_ count: Int) -> Signal {
        requireNonNegative(count, "Signal.take(_:)")
        let source = asUpstream
        return Signal(depth: depthAbove) { downstream in
            if count == 0 {
                downstream.sendComplete()
                return .empty
            }
            let remaining = Counter(count)
            let link = UpstreamLink<Value, Failure>()
            let upstream = SignalSubscriber<Value, Failure>(
                value: { value in
                    guard remaining.value > 0 else { return }
                    remaining.value -= 1
                    downstream.send(value)
                    if remaining.value == 0 {
                        // Stop the source first so it can stop producing, even inside its own action.
                        link.dispose()
                        downstream.sendComplete()
                    }
                },
                error: downstream.sendError,
                complete: downstream.sendComplete)
            link.target = upstream
            return source.subscribe(upstream)
        }
    }
}

/// A per-subscription count. `@unchecked Sendable`: only touched inside the upstream subscriber's value callback,
/// which the subscriber serialises.
final class Counter: @unchecked Sendable {
    var value: Int

    init(_ value: Int) {
        self.value = value
    }
}
