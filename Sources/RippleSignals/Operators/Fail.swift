extension Signal {
    /// A signal that fails at once with `error`.
    public static func fail(_ error: Failure) -> Signal {
        Signal { subscriber in
            subscriber.sendError(error)
            return .empty
        }
    }
}
