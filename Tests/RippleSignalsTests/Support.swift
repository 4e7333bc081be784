import RippleCore
import RippleTesting
@testable import RippleSignals

struct TestError: Error, Equatable {
    let code: Int
    init(_ code: Int = 1) { self.code = code }
}

/// A hot producer a test drives by hand: every subscription registers its subscriber here.
final class ManualSource<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // Guarded by `state`'s lock.
    private struct State {
        var subscribers: [SignalSubscriber<Value, Failure>] = []
        var subscriptions = 0
        var disposals = 0
    }

    private let state = Locked(State())

    var signal: Signal<Value, Failure> {
        Signal { [self] subscriber in
            state.withLock {
                $0.subscribers.append(subscriber)
                $0.subscriptions += 1
            }
            return Disposer { [self] in state.withLock { $0.disposals += 1 } }
        }
    }

    var subscriptions: Int { state.withLock { $0.subscriptions } }
    var disposals: Int { state.withLock { $0.disposals } }

    private var live: [SignalSubscriber<Value, Failure>] {
        state.withLock { $0.subscribers }
    }

    func send(_ value: Value) { for subscriber in live { subscriber.send(value) } }
    func sendError(_ error: Failure) { for subscriber in live { subscriber.sendError(error) } }
    func sendComplete() { for subscriber in live { subscriber.sendComplete() } }

    /// Drops the references to the subscribers, as a producer that forgets its subscribers would.
    func forgetSubscribers() {
        // Freed outside the lock: a freed subscriber runs its cleanup, which takes the lock again.
        var forgotten = state.withLock { state in
            defer { state.subscribers = [] }
            return state.subscribers
        }
        forgotten.removeAll()
    }
}

/// What a subscription received, as a comparable list.
enum Event<Value: Sendable & Equatable>: Equatable, Sendable, CustomStringConvertible {
    case value(Value)
    case error(Int)
    case complete

    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .error(let code): "error(\(code))"
        case .complete: "complete"
        }
    }
}

extension Signal where Value: Equatable, Failure == TestError {
    /// Subscribes and records every event.
    @discardableResult
    func record(into recorder: Recorder<Event<Value>>) -> Disposer {
        let handle = subscribe(value: { recorder.record(.value($0)) },
                               error: { recorder.record(.error($0.code)) },
                               complete: { recorder.record(.complete) })
        recorder.keep(handle)   // the subscription runs while the recorder lives, or until disposed
        return handle
    }
}

extension Signal where Value: Equatable, Failure == Never {
    @discardableResult
    func record(into recorder: Recorder<Event<Value>>) -> Disposer {
        let handle = subscribe(value: { recorder.record(.value($0)) }, complete: { recorder.record(.complete) })
        recorder.keep(handle)   // the subscription runs while the recorder lives, or until disposed
        return handle
    }
}

