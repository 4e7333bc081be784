import Testing

/// One event of a reactive source at a virtual time: what RxTest calls `Recorded<Event<Element>>`.
///
/// Invariants: `time` is a reading of a ``TestScheduler``'s clock (`.zero` when recorded without one); two
/// recordings are equal when their times and events are, a failure comparing by its type and description (errors
/// are rarely `Equatable`, and a marble test names the error it expects anyway).
///
/// ```swift
/// let expected: [Recorded<Int>] = [.value(.seconds(210), 2), .value(.seconds(240), 4), .completed(.seconds(300))]
/// ```
public struct Recorded<Value: Sendable>: Sendable {
    public var time: Duration
    public var event: Event

    /// What happened: a value, the completion, or the failure that ends a signal. Nodes only ever record values.
    public enum Event: Sendable {
        case value(Value)
        case completed
        case failed(any Error)
    }

    public init(time: Duration, event: Event) {
        self.time = time
        self.event = event
    }

    public static func value(_ time: Duration, _ value: Value) -> Recorded {
        Recorded(time: time, event: .value(value))
    }

    public static func completed(_ time: Duration) -> Recorded {
        Recorded(time: time, event: .completed)
    }

    public static func failed(_ time: Duration, _ error: any Error) -> Recorded {
        Recorded(time: time, event: .failed(error))
    }

    /// The value, if this is a value event.
    public var value: Value? {
        if case .value(let value) = event { value } else { nil }
    }
}

extension Recorded: Equatable where Value: Equatable {
    public static func == (lhs: Recorded, rhs: Recorded) -> Bool {
        guard lhs.time == rhs.time else { return false }
        switch (lhs.event, rhs.event) {
        case (.value(let left), .value(let right)): return left == right
        case (.completed, .completed): return true
        case (.failed(let left), .failed(let right)): return describe(left) == describe(right)
        default: return false
        }
    }
}

extension Recorded: CustomStringConvertible, CustomTestStringConvertible {
    /// `value(2) @ 210.0 seconds`, `completed @ 300.0 seconds`, `failed(Timeout()) @ 5.0 seconds`, so a failed
    /// `#expect(recorder.events == expected)` lists what was inserted and removed in readable events.
    public var description: String {
        let what = switch event {
        case .value(let value): "value(\(String(reflecting: value)))"
        case .completed: "completed"
        case .failed(let error): "failed(\(String(reflecting: error)))"
        }
        return "\(what) @ \(time)"
    }

    public var testDescription: String {
        description
    }
}

private func describe(_ error: any Error) -> String {
    "\(type(of: error)): \(String(reflecting: error))"
}
