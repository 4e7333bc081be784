// `then` is EasyReact's `then:`: it hands the node itself to a block and returns it, so setting up a node (naming
// it, listening to it) reads as one chain. It links nothing and derives no node.

extension NodeInitializable {
    /// Calls `body` with this node and returns it (EasyReact's `then:`), for a chain that sets a node up in place:
    ///
    /// ```swift
    /// let bag = CancelBag()
    /// let count = MutableNode(0).then { $0.listened(by: bag).withBlock { print($0) } }
    /// ```
    ///
    /// A ``MutableNode`` stays mutable: `body` and the result have the receiver's own type.
    @discardableResult
    public func then(_ body: (Self) throws -> Void) rethrows -> Self {
        try body(self)
        return self
    }
}
