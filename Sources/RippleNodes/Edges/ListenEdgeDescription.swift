// Invariants: reads only `isCancelled` (atomic) and the value type's name: printing a listener from any thread is as
// safe as asking whether it is cancelled.

extension ListenEdge: CustomStringConvertible {
    /// `Listener(Node<Int>, listening)` or `Listener(Node<Int>, cancelled)`.
    public var description: String {
        "Listener(Node<\(Value.self)>, \(isCancelled ? "cancelled" : "listening"))"
    }
}
