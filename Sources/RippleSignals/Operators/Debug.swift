// Invariants: one line per event, in the order the events pass, written through `output` on the event's thread;
// the events themselves pass unchanged (this is `handleEvents` with a printer).

extension Signal {
    /// Prints every event of each subscription, prefixed (RxSwift's `debug`, Combine's `print`): `subscribed`,
    /// `value 1`, `error …`, `complete`, `disposed`.
    ///
    /// ```swift
    /// import Ripple
    ///
    /// let subscription = Signal<Int, Never>.just(1).debug("numbers").subscribe(value: { _ in })
    /// // numbers: subscribed
    /// // numbers: value 1
    /// // numbers: complete
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: starts every line (`"prefix: event"`); empty, a line is the event alone.
    ///   - output: where the lines go; `print` unless given (tests pass a collector).
    public func debug(_ prefix: String = "",
                      to output: @escaping @Sendable (String) -> Void = { print($0) }) -> Signal {
        let lead = prefix.isEmpty ? "" : prefix + ": "
        return handleEvents(
            subscribed: { output(lead + "subscribed") },
            value: { output(lead + "value \($0)") },
            error: { output(lead + "error \($0)") },
            complete: { output(lead + "complete") },
            disposed: { output(lead + "disposed") })
    }
}
