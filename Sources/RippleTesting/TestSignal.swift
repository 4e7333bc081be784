import RippleCore
import RippleSignals

/// A signal that plays recorded events on a ``TestScheduler`` and logs every subscription: RxTest's
/// `TestableObservable`. Make one with ``TestScheduler/hotSignal(_:failure:)`` or
/// ``TestScheduler/coldSignal(_:failure:)`` and put ``signal`` under test.
///
/// - **Hot**: the events play at their own virtual times from the moment the source is made, whoever listens; a
///   subscriber hears those that fall after it subscribed, as with a button or a socket.
/// - **Cold**: each subscription plays the whole sequence, its times counted from the moment of subscribing, as with
///   a request made per subscriber.
///
/// Invariants: events are delivered on the thread advancing the scheduler, never under this object's lock; a hot
/// source holds its live subscribers (a producer keeps its subscribers, as in GYSignal) until they end or are
/// disposed; ``subscriptions`` logs each subscription's start and, once it ends or is disposed, its end.
public final class TestSignal<Value: Sendable, Failure: Error>: Sendable {
    /// The signal to put under test. It keeps the source's state alive by itself, so it may outlive this object.
    public let signal: Signal<Value, Failure>
    private let log: SubscriptionLog

    /// When each subscription began and ended, in subscription order.
    public var subscriptions: [TestSubscription] {
        log.entries.value
    }

    init(hot events: [Recorded<Value>], scheduler: TestScheduler, api: String) {
        let events = Self.typed(events, api: api)
        let log = SubscriptionLog()
        // Guarded by the lock inside `Locked`: the subscribers a hot event goes to.
        let live = Locked<[(id: Int, subscriber: SignalSubscriber<Value, Failure>)]>([])
        self.log = log
        signal = Signal { subscriber in
            let id = log.subscribed(at: scheduler.now)
            live.withLock { $0.append((id, subscriber)) }
            return Disposer {
                live.withLock { $0.removeAll { $0.id == id } }
                log.ended(id, at: scheduler.now)
            }
        }
        for (time, event) in events {
            scheduler.schedule(after: time - scheduler.now) {
                for (_, subscriber) in live.value { Self.deliver(event, to: subscriber) }
            }
        }
    }

    init(cold events: [Recorded<Value>], scheduler: TestScheduler, api: String) {
        let events = Self.typed(events, api: api)
        let log = SubscriptionLog()
        self.log = log
        signal = Signal { subscriber in
            let id = log.subscribed(at: scheduler.now)
            let bag = CancelBag()
            for (time, event) in events {
                scheduler.schedule(after: time) { Self.deliver(event, to: subscriber) }.cancelled(by: bag)
            }
            return Disposer {
                bag.cancel()
                log.ended(id, at: scheduler.now)
            }
        }
    }

    /// `@unchecked Sendable`: `entries` is a `Locked`.
    private final class SubscriptionLog: @unchecked Sendable {
        let entries = Locked<[TestSubscription]>([])

        func subscribed(at time: Duration) -> Int {
            entries.withLock {
                $0.append(TestSubscription(time))
                return $0.count - 1
            }
        }

        func ended(_ id: Int, at time: Duration) {
            entries.withLock { entries in
                if entries[id].disposed == nil { entries[id].disposed = time }
            }
        }
    }

    private enum Typed: Sendable {
        case value(Value), completed, failed(Failure)
    }

    /// Checks every recorded failure is a `Failure` once, when the source is made, rather than when it plays.
    private static func typed(_ events: [Recorded<Value>], api: String) -> [(Duration, Typed)] {
        events.map { recorded in
            switch recorded.event {
            case .value(let value): return (recorded.time, .value(value))
            case .completed: return (recorded.time, .completed)
            case .failed(let error):
                guard let failure = error as? Failure else {
                    programmerErrorInTesting("\(api) got a failure of type \(type(of: error)) for a signal failing "
                                                 + "with \(Failure.self): \(String(reflecting: error))")
                }
                return (recorded.time, .failed(failure))
            }
        }
    }

    private static func deliver(_ event: Typed, to subscriber: SignalSubscriber<Value, Failure>) {
        switch event {
        case .value(let value): subscriber.send(value)
        case .completed: subscriber.sendComplete()
        case .failed(let error): subscriber.sendError(error)
        }
    }
}

/// When a subscription to a ``TestSignal`` began and ended (RxTest's `Subscription`); `disposed` is `nil` while it
/// lasts.
public struct TestSubscription: Equatable, Sendable, CustomStringConvertible {
    public var subscribed: Duration
    public var disposed: Duration?

    public init(_ subscribed: Duration, _ disposed: Duration? = nil) {
        self.subscribed = subscribed
        self.disposed = disposed
    }

    public var description: String {
        "\(subscribed) – \(disposed.map { "\($0)" } ?? "…")"
    }
}

extension TestScheduler {
    /// A hot signal source: `events` play at their virtual times from now on, to whoever is subscribed then.
    /// Recorded failures must be `Failure`s.
    public func hotSignal<Value, Failure>(_ events: [Recorded<Value>], failure: Failure.Type)
        -> TestSignal<Value, Failure> {
        TestSignal(hot: events, scheduler: self, api: "TestScheduler.hotSignal(_:failure:)")
    }

    /// A hot signal source failing with `any Error`.
    public func hotSignal<Value>(_ events: [Recorded<Value>]) -> TestSignal<Value, any Error> {
        TestSignal(hot: events, scheduler: self, api: "TestScheduler.hotSignal(_:)")
    }

    /// A cold signal source: each subscription plays `events`, their times counted from the moment it subscribes.
    /// Recorded failures must be `Failure`s.
    public func coldSignal<Value, Failure>(_ events: [Recorded<Value>], failure: Failure.Type)
        -> TestSignal<Value, Failure> {
        TestSignal(cold: events, scheduler: self, api: "TestScheduler.coldSignal(_:failure:)")
    }

    /// A cold signal source failing with `any Error`.
    public func coldSignal<Value>(_ events: [Recorded<Value>]) -> TestSignal<Value, any Error> {
        TestSignal(cold: events, scheduler: self, api: "TestScheduler.coldSignal(_:)")
    }
}

extension Signal {
    /// Subscribes `recorder`: it records each value, and the completion or failure, at the scheduler's time.
    /// Returns the subscription's handle: keep it while recording (releasing it ends the subscription).
    public func subscribe(_ recorder: Recorder<Value>) -> Disposer {
        subscribe(value: { recorder.record($0) }, error: { recorder.recordFailure($0) },
                  complete: { recorder.recordCompletion() })
    }
}
