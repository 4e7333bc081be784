/// Actions in registration order, unique by identifier: the storage behind both the global list and a host's list.
struct OrderedActions {
    private(set) var actions: [LifecycleAction] = []

    /// Appends `action` unless an equal one is present; returns the one that is registered now.
    mutating func register(_ action: LifecycleAction) -> LifecycleAction {
        if let existing = actions.first(where: { $0 == action }) {
            return existing
        }
        actions.append(action)
        return action
    }

    /// Removes the action equal to `action`; returns whether there was one.
    mutating func remove(_ action: LifecycleAction) -> Bool {
        guard let index = actions.firstIndex(of: action) else { return false }
        actions.remove(at: index)
        return true
    }
}
