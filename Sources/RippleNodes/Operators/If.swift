/// The two branches of `node.if { … }`: ``thenNode`` gets the values the condition accepts, ``elseNode`` the rest.
public struct IfResult<Value: Sendable>: Sendable {
    public let thenNode: Node<Value>
    public let elseNode: Node<Value>

    /// Hands ``thenNode`` to `body` and returns self, for `node.if { … }.then { … }.else { … }`.
    @discardableResult
    public func then(_ body: (Node<Value>) throws -> Void) rethrows -> IfResult<Value> {
        try body(thenNode)
        return self
    }

    /// Hands ``elseNode`` to `body` and returns self.
    @discardableResult
    public func `else`(_ body: (Node<Value>) throws -> Void) rethrows -> IfResult<Value> {
        try body(elseNode)
        return self
    }
}

extension Node {
    /// Splits this node in two by `condition` (`if:`); the condition runs once per value.
    public final func `if`(_ condition: @escaping @Sendable (Value) -> Bool) -> IfResult<Value> {
        let branches = SwitchedNodes<Bool, Value>(upstream: self, name: "if") { (condition($0), $0) }
        let thenNode = branches.case(true)
        thenNode.name = "then"
        let elseNode = branches.case(false)
        elseNode.name = "else"
        return IfResult(thenNode: thenNode, elseNode: elseNode)
    }
}
