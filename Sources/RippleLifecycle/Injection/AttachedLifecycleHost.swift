// Invariants: an attached host is owned by the object it stands for (on UIKit, through an associated object) and
// holds that object weakly, so neither keeps the other alive past the object's life and no side table maps objects
// to hosts; its action list is created with it and freed with it, as every host's is.

/// The lifecycle host standing for an object that cannot adopt ``LifecycleHost`` itself — on UIKit, a
/// `UIViewController` once `LifecycleActions.installOnAllViewControllers()` has run (its `lifecycleHost`).
///
/// Actions receive this host; its ``owner`` is the object:
///
/// ```swift
/// import RippleLifecycle
///
/// final class Document {}
///
/// @MainActor func track() {
///     let document = Document()
///     let host = AttachedLifecycleHost(owner: document)
///     host.registerLifecycleAction(BlockLifecycleAction(on: [.didAppear]) { _, host, _ in
///         print((host as? AttachedLifecycleHost<Document>)?.owner != nil)   // true
///     })
///     LifecycleActions.dispatch(.didAppear(animated: false), to: host)
/// }
/// ```
@MainActor
public final class AttachedLifecycleHost<Owner: AnyObject>: LifecycleHost {
    /// The object this host stands for; `nil` once it is gone.
    public private(set) weak var owner: Owner?
    public let lifecycleActions: LifecycleActionList

    /// A host for `owner`, seeing the global actions of `globals`. Keep it where `owner` keeps it (on UIKit, the
    /// view controller's associated object does).
    public init(owner: Owner, globals: LifecycleActions = .shared) {
        self.owner = owner
        lifecycleActions = LifecycleActionList(globals: globals)
    }
}
