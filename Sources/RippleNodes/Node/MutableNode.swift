import RippleCore

/// A node you can set: `node.value = 82`, `node.set(83, context: "File1.m")`, `node.clean()`.
///
/// Setting is thread-safe. A set is one transaction, settled synchronously on the setting thread: every node it
/// reaches settles once, after all of its upstreams that change (listeners first, then downstream transforms). Inside
/// ``Node/batch(_:)`` sets join one transaction; a set on a node that is already part of the transaction running on
/// this thread is applied as the next one. See <doc:Propagation>.
// Public but not `open`, so only this module subclasses it, and every member is `final`.
public class MutableNode<Value: Sendable>: Node<Value>, @unchecked Sendable {
    /// The current value; assigning nil empties the node (without notifying anyone).
    public final override var value: Value? {
        get { super.value }
        @inlinable set { startPropagation(newValue, checkMutable: true) }
    }

    /// Sets `value`, carrying `context` unchanged to every listener and downstream node (`setValue:context:`).
    @inlinable
    public final func set(_ value: Value?, context: (any Sendable)?) {
        // The read-only check happens inside the engine, under the node lock it takes anyway.
        startPropagation(value, context: context, checkMutable: true)
    }

    /// Empties the node; listeners and downstream nodes hear nothing.
    public final func clean() {
        set(nil, context: nil)
    }
}

extension Node {
    /// A set on a read-only node: the programmer error of `MutableNode.set(_:context:)`.
    @usableFromInline
    final func readOnlySetFailed() -> Never {
        programmerError("MutableNode.set(_:context:) on read-only node '\(name ?? "undefined")'; call mutablify() first")
    }

    /// Stops with ``readOnlySetFailed()`` unless the node is mutable.
    @usableFromInline
    final func requireMutable() {
        if !lock.withLock({ mutableFlag }) { readOnlySetFailed() }
    }
}
