// Invariants: a pass-through node: every value the source node gets reaches `value` first, on the setter's thread,
// then this node, unchanged (context too). A node never ends, so values are its only events.

extension Node {
    /// A node holding the same values as this one, running `value` with each before it passes (Combine's
    /// `handleEvents(receiveOutput:)`): a log line, a counter, a loading flag.
    ///
    /// The hook runs while the returned node is alive and linked, like any transform: keep the returned node (or
    /// what derives from it).
    @inlinable
    public final func handleEvents(value: @escaping @Sendable (Value) -> Void) -> Node<Value> {
        derive("handleEvents", MapTransform { received in
            value(received)
            return received
        })
    }

    /// A node holding the same values as this one that prints each as it passes: `prefix: value 1`. `output` is
    /// `print` unless given (tests pass a collector).
    public final func debug(_ prefix: String = "",
                            to output: @escaping @Sendable (String) -> Void = { print($0) }) -> Node<Value> {
        let lead = prefix.isEmpty ? "" : prefix + ": "
        return handleEvents(value: { output(lead + "value \($0)") })
    }
}
