/// An object that owns listening: whatever it listens to stays alive, and stops, with it.
///
/// This replaces EasyReact's associated objects. A view model that conforms can write `node.listened(by: self)`;
/// when it is freed, its ``CancelBag`` cancels every listen edge and subscription it held.
public protocol ListenerOwner: AnyObject {
    var cancelBag: CancelBag { get }
}
