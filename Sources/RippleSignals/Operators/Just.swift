extension Signal {
    /// A signal that sends `value` once, then completes.
    public static func just(_ value: Value) -> Signal {
        Signal { subscriber in
            subscriber.send(value)
            subscriber.sendComplete()
            return .empty
        }
    }
}
