/// What every node answers without its value type: how an upstream node pushes into a fused operator node (see
/// `FusedNode.swift`), which cannot name the fused node's output type.
///
/// Not for use on its own: it has no stored properties (a node's layout does not change) and no public initialiser.
@_documentation(visibility: internal)
@_fixed_layout
public class NodeBase: @unchecked Sendable {
    @inlinable
    init() {}

    /// Applies a fused node's operator to the value at `value` (of the upstream's type) and pushes the result into
    /// the node. Only a fused node is ever called. Linking uses it; a hop reads the operator's thunk directly (see
    /// `Node.push(_:along:senders:context:state:)`). The thunk is not stored here, where every node would carry it:
    /// creating and freeing a node then cost ~18 instructions more (FlatMapLatestPumping).
    @usableFromInline
    func receiveFused(_ value: UnsafeRawPointer, senders: SenderList, context: (any Sendable)?) {}

    /// Where the upstream's edge list holds this fused node. Guarded by the upstream's lock.
    @usableFromInline
    var fusedListIndex: Int {
        get { -1 }
        set {}
    }

    /// Turns the fused operator feeding this node into a plain transform (graph queries hand transforms out).
    func materializeFusedInlet() {}
}
