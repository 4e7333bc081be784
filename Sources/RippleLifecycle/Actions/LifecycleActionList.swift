import RippleCore

let actionListCounter = LiveObjectCounter("LifecycleActionList")

/// A host's own actions, in registration order, and the registry whose global actions the host also sees.
///
/// Every ``LifecycleHost`` stores one. Events run the registry's global actions first, then these.
@MainActor
public final class LifecycleActionList {
    /// The registry whose global actions run for this host before the host's own actions.
    public let globals: LifecycleActions
    private var list = OrderedActions()
    /// What actions remember about this host (see ``HostMarks``).
    var marks = HostMarks()

    /// - Parameter globals: the registry of global actions this host sees; ``LifecycleActions/shared`` unless a
    ///   test or a sandboxed subsystem wants its own.
    public init(globals: LifecycleActions = .shared) {
        self.globals = globals
        actionListCounter.increment()
    }

    deinit {
        actionListCounter.decrement()
    }

    /// The host's own actions, in registration order.
    public var actions: [LifecycleAction] {
        list.actions
    }

    /// See ``LifecycleHost/registerLifecycleAction(_:)``.
    @discardableResult
    public func register(_ action: LifecycleAction) -> LifecycleAction {
        list.register(action)
    }

    /// See ``LifecycleHost/removeLifecycleAction(_:)``.
    @discardableResult
    public func remove(_ action: LifecycleAction) -> Bool {
        list.remove(action)
    }
}
