import RippleCore

/// A node you can set: `node.value = 82`, `node.set(83, context: "File1.m")`, `node.clean()`.
///
/// Setting is thread-safe; the new value reaches listeners first, then downstream transforms, synchronously on the
/// setting thread. A set on a node that is already propagating on this thread is queued and applied after the
/// current propagation finishes.
public final class MutableNode<Value: Sendable>: Node<Value>, @unchecked Sendable {
    /// The current value; assigning nil empties the node (without notifying anyone).
    public override var value: Value? {
        get { super.value }
        set { set(newValue, context: nil) }
    }

    /// Sets `value`, carrying `context` unchanged to every listener and downstream node (`setValue:context:`).
    public func set(_ value: Value?, context: (any Sendable)?) {
        guard lock.withLock({ mutableFlag }) else {
            programmerError("MutableNode.set(_:context:) on read-only node '\(name ?? "undefined")'; call mutablify() first")
        }
        startPropagation(value, context: context)
    }

    /// Empties the node; listeners and downstream nodes hear nothing.
    public func clean() {
        set(nil, context: nil)
    }
}
