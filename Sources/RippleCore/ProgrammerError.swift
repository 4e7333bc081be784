/// Stops the program because the caller broke an API contract (a negative count, a non-positive interval, a node
/// linked to itself, …).
///
/// Ripple uses `fatalError` rather than `preconditionFailure` so the message, which names the API and the offending
/// value, survives optimised builds: `precondition` messages are dropped under `-O`.
package func programmerError(_ message: @autoclosure () -> String,
                             file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Ripple: \(message())", file: file, line: line)
}

/// Stops with a clear message when a count that must not be negative is.
package func requireNonNegative(_ count: Int, _ api: String,
                                file: StaticString = #file, line: UInt = #line) {
    if count < 0 {
        programmerError("\(api) needs a count ≥ 0, got \(count)", file: file, line: line)
    }
}

/// Stops with a clear message when a time interval that must be positive is not.
package func requirePositive(_ interval: Duration, _ api: String,
                             file: StaticString = #file, line: UInt = #line) {
    if interval <= .zero {
        programmerError("\(api) needs an interval > 0, got \(interval)", file: file, line: line)
    }
}
