/// The class every node derives from. Engine 2 used it to push into fused operator nodes without their output type;
/// fusion is gone (it needed the runtime's `swift_tryRetain`, see `TargetRef.swift`), and the class stays only so
/// that `Node`'s public superclass does not change here (taking it out of the public API is issue 28's item 2).
///
/// Not for use on its own: it has no stored properties and no public initialiser.
@_documentation(visibility: internal)
@_fixed_layout
public class NodeBase: @unchecked Sendable {
    @inlinable
    init() {}
}
