#if canImport(Combine) || OpenCombine
import RippleCore
import RippleSignals

// Invariants: each subscription to the signal subscribes to the publisher once, with unlimited demand (a signal has
// no backpressure); the publisher's values, completion and failure become the signal's, on the publisher's thread.
// Disposing (or releasing the handle of) the signal subscription cancels the Combine subscription, once; a
// subscription that arrives after the disposal is cancelled at once.

extension Publisher where Output: Sendable {
    /// This publisher as a ``Signal``: each subscription subscribes to the publisher (unlimited demand), and
    /// disposing it cancels that subscription.
    public var signal: Signal<Output, Failure> {
        // Only the subscribing closure is captured, so the signal's `@Sendable` action captures no `Self` metatype.
        let publisher = SubscribeBox<Output, Failure> { sink in self.subscribe(sink) }
        return Signal { subscriber in
            let sink = SignalSink(subscriber)
            publisher.subscribe(sink)
            return Disposer { sink.cancel() }
        }
    }
}

/// Lets a publisher (not `Sendable` in Combine's API) be reached from the signal's `@Sendable` action: it is only
/// used to call `subscribe`, which Combine publishers allow from any thread.
private struct SubscribeBox<Output: Sendable, Failure: Error>: @unchecked Sendable {
    let subscribe: (SignalSink<Output, Failure>) -> Void
}

/// The Combine subscriber behind `publisher.signal`: forwards to a ``SignalSubscriber`` (which enforces the signal
/// grammar) and holds the Combine subscription until disposed.
private final class SignalSink<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    // `@unchecked Sendable`: `subscription` is inside the mutex; `subscriber` is thread-safe.
    private let subscriber: SignalSubscriber<Input, Failure>
    private let subscription = Locked<(held: (any Subscription)?, cancelled: Bool)>((nil, false))
    let combineIdentifier = CombineIdentifier()

    init(_ subscriber: SignalSubscriber<Input, Failure>) {
        self.subscriber = subscriber
    }

    func receive(subscription: any Subscription) {
        let cancelled = self.subscription.withLock { state -> Bool in
            if state.cancelled || state.held != nil { return true }
            state.held = subscription
            return false
        }
        if cancelled {
            subscription.cancel()
        } else {
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        subscriber.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: subscriber.sendComplete()
        case .failure(let error): subscriber.sendError(error)
        }
        subscription.withLock { $0.held = nil }
    }

    func cancel() {
        let held = subscription.withLock { state -> (any Subscription)? in
            state.cancelled = true
            defer { state.held = nil }
            return state.held
        }
        held?.cancel()
    }
}
#endif
