extension Signal {
    /// A signal that sends `value` once, then completes.
    @inlinable
    public static func just(_ value: Value) -> Signal {
        // The value lives in the signal itself: making a `just` allocates nothing. It calls the callbacks it is
        // attached with directly (one value, then completion, on the subscribing thread, so the grammar holds by
        // construction), needs no subscriber of its own as the head of a map/filter chain, and flatMap delivers
        // it inline, without subscribing to it at all. Inlinable so that building the enum is specialised too.
        Signal(body: .just(value), depth: 0)
    }
}
