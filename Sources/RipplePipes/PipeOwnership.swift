import RippleCore

// `retained(by:)`: an owner's cancel bag holds the pipe until the owner is freed (or its bag is cancelled). Only
// the pipe is held: its chain, and so every action of the chain, lives as long as any of its pipes does.

extension ActionPipe {
    /// Keeps this pipe, and with it the actions of its whole chain, alive as long as `owner` (the seed's
    /// `retainPipeBy:`, named like `listened(by:)` and `cancelled(by:)`). The owner's `CancelBag` holds the pipe;
    /// when the owner is freed, or its bag cancelled, the pipe is let go, and the chain's actions with it once no
    /// other pipe of the chain is held elsewhere.
    ///
    /// ```swift
    /// final class ShareViewModel: ListenerOwner {
    ///     let cancelBag = CancelBag()
    /// }
    /// let model = ShareViewModel()
    /// ActionPipe(ShareActions()).retained(by: model)   // lives until `model` goes
    /// ```
    @discardableResult
    public func retained(by owner: some ListenerOwner) -> ActionPipe<Actions> {
        owner.cancelBag.insert(ClosureCancelToken { withExtendedLifetime(self) {} })
        return self
    }
}
