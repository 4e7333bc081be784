extension Signal {
    /// A signal that sends `value` once, then completes.
    public static func just(_ value: Value) -> Signal {
        // Fused like map and filter: it calls the callbacks it is attached with directly (one value, then completion,
        // on the subscribing thread, so the grammar holds by construction) and needs no subscriber of its own as the
        // head of a map/filter chain or as a flattenMap inner signal.
        Signal(fused: { send, _, complete in
            send(value)
            complete()
            return .nothing
        })
    }
}
