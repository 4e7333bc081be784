extension Signal {
    /// A signal that sends nothing and never ends.
    public static var never: Signal {
        Signal { _ in .empty }
    }
}
