import RippleCore
import RippleNodes
import RipplePipes

extension ActionRegistration where Result == Void {
    /// Finishes the registration with an action that sets `node` to the call's argument, for a one-argument key
    /// returning `Void`: every call that reaches this action (its requirements met) sets the node's value.
    ///
    /// ```swift
    /// struct SearchActions { var search = ActionKey<String, Void>("search:") }
    /// let query = MutableNode<String>()
    /// pipe.registerAction(\.search).feed(query)
    /// pipe.search("ripple")            // query.value == "ripple"; its listeners and downstream nodes run now
    /// ```
    ///
    /// - The node is held weakly, like a `delegate(_:_:)` responder: the pipe never keeps it alive, and once it is
    ///   freed the action is skipped (it no longer changes the call's upstream return value).
    /// - The value is set synchronously on the calling thread, inside the call, so the node's listeners run before
    ///   the next action of the chain. A call made from inside the node's own propagation is queued by the node
    ///   (EasyReact's re-entrancy rule) and applied once that propagation finishes.
    /// - Requirements (`state(_:)`, `returnKind(of:)`, …) added before `feed` apply as for any action.
    ///
    /// The key must take exactly one argument, of the node's value type; any other key stops with a programmer error
    /// naming the key's argument types.
    public func feed<Value>(_ node: MutableNode<Value>) {
        var types: [Any.Type] = []
        for type in repeat (each Argument).self {
            types.append(type)
        }
        guard types.count == 1, types[0] == Value.self else {
            let shown = types.map { String(describing: $0) }.joined(separator: ", ")
            programmerError("ActionRegistration.feed(_:) needs a key with one argument of type \(Value.self), "
                + "got (\(shown))")
        }
        delegate(node) { (node: MutableNode<Value>, arguments: repeat each Argument) in
            for argument in repeat each arguments {
                // Checked above that the only argument is a `Value`; a cast between equal types, which the
                // specialised closure folds away.
                if let value = argument as? Value {
                    node.value = value
                }
            }
        }
    }
}
