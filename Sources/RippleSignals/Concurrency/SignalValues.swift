import RippleCore

/// How ``Signal/values(bufferingPolicy:)`` buffers values the consumer has not taken yet.
public enum SignalBufferingPolicy: Sendable {
    /// Keep every value.
    case unbounded
    /// Keep at most `limit` values (at least 1); newer values are dropped while the buffer is full.
    case bufferingOldest(Int)
    /// Keep at most `limit` values (at least 1); the oldest is dropped to make room.
    case bufferingNewest(Int)
}

extension Signal {
    /// The signal's values as an `AsyncSequence` that throws `Failure`, buffering every value.
    public var values: SignalValues<Value, Failure> {
        values(bufferingPolicy: .unbounded)
    }

    /// The signal's values as an `AsyncSequence` that throws `Failure` (use `for await` when it is `Never`).
    ///
    /// Each iterator subscribes once. Cancelling the consuming task, or dropping the iterator, disposes the
    /// subscription. An error or completion is never lost to a full buffer: it ends the sequence after the values
    /// the buffer kept. A limit below 1 would drop every value: it stops the program with a message naming it.
    public func values(bufferingPolicy: SignalBufferingPolicy) -> SignalValues<Value, Failure> {
        switch bufferingPolicy {
        case .unbounded:
            break
        case .bufferingOldest(let limit), .bufferingNewest(let limit):
            if limit < 1 {
                programmerError("Signal.values(bufferingPolicy:) needs a limit ≥ 1, got .\(bufferingPolicy)")
            }
        }
        return SignalValues(signal: self, policy: bufferingPolicy)
    }
}

/// The values of a ``Signal`` as an `AsyncSequence` with a typed failure.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
    public typealias Element = Value

    let signal: Signal<Value, Failure>
    let policy: SignalBufferingPolicy

    public func makeAsyncIterator() -> Iterator {
        let terminalError = Locked<Failure?>(nil)
        let stream = AsyncStream<Value>(Value.self, bufferingPolicy: policy.streamPolicy()) { continuation in
            let disposer = signal.subscribe(SignalSubscriber(
                value: { continuation.yield($0) },
                error: { error in
                    terminalError.withLock { $0 = error }
                    continuation.finish()
                },
                complete: { continuation.finish() }))
            continuation.onTermination = { _ in disposer.dispose() }
        }
        return Iterator(base: stream.makeAsyncIterator(), terminalError: terminalError)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Value>.Iterator
        let terminalError: Locked<Failure?>

        public mutating func next() async throws(Failure) -> Value? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            if let value = await base.next(isolation: actor) { return value }
            let error = terminalError.withLock { stored -> Failure? in
                defer { stored = nil }
                return stored
            }
            if let error { throw error }
            return nil
        }
    }
}

extension SignalBufferingPolicy {
    func streamPolicy<Value>() -> AsyncStream<Value>.Continuation.BufferingPolicy {
        switch self {
        case .unbounded: .unbounded
        case .bufferingOldest(let limit): .bufferingOldest(limit)
        case .bufferingNewest(let limit): .bufferingNewest(limit)
        }
    }

}
