extension Node {
    /// A new node following this one value for value (`fork`).
    @inlinable
    public final func fork() -> Node<Value> {
        derive("fork", Transform<Value, Value>())
    }
}
