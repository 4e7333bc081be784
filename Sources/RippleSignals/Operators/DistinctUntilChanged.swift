extension Signal where Value: Equatable {
    /// Drops a value equal to the previous one; the first value always passes (GYSignal's `diffrent`, Combine's
    /// `removeDuplicates`).
    ///
    /// The previous value is remembered per subscription. This is what breaks the loop of a two-way binding.
    public func distinctUntilChanged() -> Signal {
        let upstream = asUpstream
        return Signal(depth: depthAbove) { downstream in
            let last = LastValue<Value>()
            return upstream.subscribe(SignalSubscriber(
                value: { value in
                    if last.value != value {
                        last.value = value
                        downstream.send(value)
                    }
                },
                error: downstream.sendError,
                complete: downstream.sendComplete))
        }
    }
}

extension Signal where Value: Equatable {
    /// GYSignal's name (`diffrent`, spelt right) for ``distinctUntilChanged()``.
    public func different() -> Signal {
        distinctUntilChanged()
    }
}

/// `distinctUntilChanged()`'s memory. `@unchecked Sendable`: only touched inside the upstream subscriber's value callback, which
/// the subscriber serialises, so no two threads touch it at once.
final class LastValue<Value>: @unchecked Sendable {
    var value: Value?
}
