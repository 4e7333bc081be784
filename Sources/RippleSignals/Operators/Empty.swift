extension Signal {
    /// A signal that completes at once, without values.
    public static var empty: Signal {
        Signal { subscriber in
            subscriber.sendComplete()
            return .empty
        }
    }
}
