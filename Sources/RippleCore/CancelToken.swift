/// Something that can be stopped: a listen edge, a subscription, scheduled work, a bag of those.
///
/// `cancel()` must be idempotent and safe to call from any thread; the work it stops runs at most once.
public protocol CancelToken: Sendable {
    /// Stops the work. Calling it again, from any thread, does nothing.
    func cancel()
    /// Whether `cancel()` has run (or the work ended on its own and cannot be cancelled any more).
    var isCancelled: Bool { get }
}

extension CancelToken {
    /// Hands this cancellable to `bag`, which cancels it when the bag is cancelled or freed.
    public func store(in bag: CancelBag) {
        bag.insert(self)
    }

    /// Hands this cancellable to `owner`'s bag: when the owner goes away, the work stops.
    public func cancelled(by owner: some ListenerOwner) {
        owner.cancelBag.insert(self)
    }
}
