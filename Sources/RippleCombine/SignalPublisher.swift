#if canImport(Combine) || OpenCombine
import RippleCore
import RippleSignals

// Invariants: each Combine subscriber gets its own signal subscription, started at its first demand (a cold signal's
// action runs then, not when it attaches). The subscriber never receives more values than it requested: values the
// signal sends beyond the demand wait in a buffer (unbounded — a signal cannot be paused) and go out as demand
// arrives; the completion or error follows the buffered values. Deliveries are serialised (one drainer at a time,
// never under the lock), so a subscriber that requests more from inside `receive(_:)` is served after it returns.
// Cancelling disposes the signal subscription; after it, nothing is delivered.

extension Signal {
    /// This signal as a Combine publisher: each subscriber subscribes to the signal once it first requests values,
    /// and cancelling disposes that subscription.
    ///
    /// Demand is respected: values the signal sends beyond it are buffered until requested.
    public var publisher: SignalPublisher<Value, Failure> {
        SignalPublisher(signal: self)
    }
}

/// A ``Signal`` as a Combine `Publisher` (see `Signal.publisher`).
public struct SignalPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    public let signal: Signal<Output, Failure>

    public init(signal: Signal<Output, Failure>) {
        self.signal = signal
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: SignalSubscription(signal: signal, downstream: subscriber))
    }
}

/// One Combine subscriber's subscription to a signal.
final class SignalSubscription<Downstream: Subscriber>: Subscription, SignalEventsTarget, @unchecked Sendable
where Downstream.Input: Sendable {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    // `@unchecked Sendable`: `downstream` is only called by the thread that set `draining`, and everything else is
    // inside `state`.
    private struct State {
        var signal: Signal<Value, Failure>?
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var buffer: [Value] = []
        var head = 0
        var completion: Subscribers.Completion<Failure>?
        var draining = false
        var disposer: Disposer?
    }

    private let state: Locked<State>

    init(signal: Signal<Value, Failure>, downstream: Downstream) {
        state = Locked(State(signal: signal, downstream: downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else {
            preconditionFailure("SignalPublisher: a subscriber requested \(demand); Combine requires a demand above zero")
        }
        let start = state.withLock { state -> Signal<Value, Failure>? in
            guard state.downstream != nil else { return nil }
            state.demand += demand
            defer { state.signal = nil }
            return state.signal
        }
        if let start {
            // The callbacks reach this subscription through a weak, type-erased reference: no `Downstream`
            // metatype in a `@Sendable` closure, and no cycle through the signal's producer.
            let target = WeakEventsTarget<Value, Failure>(self)
            let disposer = start.subscribe(
                value: { target.events?.receive($0) },
                error: { target.events?.finish(.failure($0)) },
                complete: { target.events?.finish(.finished) })
            let cancelled = state.withLock { state -> Bool in
                guard state.downstream != nil else { return true }
                state.disposer = disposer
                return false
            }
            if cancelled { disposer.dispose() }
        }
        drain()
    }

    func cancel() {
        let disposer = state.withLock { state -> Disposer? in
            state.downstream = nil
            state.signal = nil
            state.buffer = []
            state.head = 0
            defer { state.disposer = nil }
            return state.disposer
        }
        disposer?.dispose()
    }

    func receive(_ value: Value) {
        let accepted = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            state.buffer.append(value)
            return true
        }
        if accepted { drain() }
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        let accepted = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            state.completion = completion
            return true
        }
        if accepted { drain() }
    }

    /// Hands buffered values to the subscriber while it has demand, then the completion once they are all out.
    private func drain() {
        typealias Step = DrainStep<Downstream>
        let entered = state.withLock { state -> Bool in
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard entered else { return }
        while true {
            let step = state.withLock { state -> Step in
                guard let downstream = state.downstream else {
                    state.draining = false
                    return .stop
                }
                if state.head < state.buffer.count {
                    guard state.demand > .none else {
                        state.draining = false
                        return .stop
                    }
                    let value = state.buffer[state.head]
                    state.head += 1
                    state.demand -= 1
                    if state.head == state.buffer.count {
                        state.buffer.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return .value(downstream, value)
                }
                if let completion = state.completion {
                    state.downstream = nil
                    state.draining = false
                    defer { state.disposer = nil }
                    return .complete(downstream, completion, state.disposer)
                }
                state.draining = false
                return .stop
            }
            switch step {
            case .value(let downstream, let value):
                let more = downstream.receive(value)
                if more > .none {
                    state.withLock { $0.demand += more }
                }
            case .complete(let downstream, let completion, let disposer):
                downstream.receive(completion: completion)
                disposer?.dispose()
                return
            case .stop:
                return
            }
        }
    }
}


/// One step of `SignalSubscription.drain()`, decided under the lock and run outside it.
private enum DrainStep<Downstream: Subscriber> {
    case value(Downstream, Downstream.Input)
    case complete(Downstream, Subscribers.Completion<Downstream.Failure>, Disposer?)
    case stop
}

/// What a signal's callbacks call on the Combine subscription they feed.
protocol SignalEventsTarget<Value, Failure>: AnyObject, Sendable {
    associatedtype Value: Sendable
    associatedtype Failure: Error
    func receive(_ value: Value)
    func finish(_ completion: Subscribers.Completion<Failure>)
}

/// A weak reference to a subscription, shared by its signal callbacks. `@unchecked Sendable`: written once, in
/// `init`; reading a weak reference is thread-safe.
final class WeakEventsTarget<Value: Sendable, Failure: Error>: @unchecked Sendable {
    weak var events: (any SignalEventsTarget<Value, Failure>)?

    init(_ events: any SignalEventsTarget<Value, Failure>) {
        self.events = events
    }
}
#endif
