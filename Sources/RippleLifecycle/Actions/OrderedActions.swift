import RippleCore

/// Actions in registration order, unique by identifier: the storage behind both the global list and a host's list.
///
/// Invariant: `registered` holds exactly the actions of `list`, each with its key there, by identifier.
///
/// Why: a registration asked every registered action whether it was equal, which cost n² for n registrations
/// (20,000 actions on one host took 18 s in a debug build); the dictionary made it O(1). A removal then still found
/// its action by a linear search and shifted the array: removing 20,000 actions, last first, took 0.36 s in release.
/// In a ``KeyedList`` a removal neither searches nor shifts, and the list an event reads is built once per change.
struct OrderedActions {
    private var list = KeyedList<LifecycleAction>()
    private var registered: [String: (key: KeyedList<LifecycleAction>.Key, action: LifecycleAction)] = [:]

    /// The actions, in registration order.
    var actions: [LifecycleAction] {
        mutating get { list.elements }
    }

    /// Appends `action` unless an equal one is present; returns the one that is registered now.
    mutating func register(_ action: LifecycleAction) -> LifecycleAction {
        if let existing = registered[action.identifier] {
            return existing.action
        }
        registered[action.identifier] = (list.append(action), action)
        return action
    }

    /// Removes the action equal to `action` (the same identifier); returns whether there was one.
    mutating func remove(_ action: LifecycleAction) -> Bool {
        guard let entry = registered.removeValue(forKey: action.identifier) else { return false }
        list.remove(entry.key)
        return true
    }
}
