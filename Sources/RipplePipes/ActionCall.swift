/// An action bound to a pipe, ready to be called like a method: what `pipe.someFunc` is.
///
/// ```swift
/// let result = pipe.someFunc(999, [1, 2, 3])          // callAsFunction
/// let later = await pipe.someFunc.callAsync(999, nil)  // awaits async actions
/// ```
@frozen
public struct ActionCall<Actions: Sendable, each Argument, Result>: Sendable {
    @usableFromInline let pipe: ActionPipe<Actions>
    /// The key's slot only: copying the whole key would retain its name on every call.
    @usableFromInline let slot: Int
    @usableFromInline let state: ActionState?

    @inlinable
    init(pipe: ActionPipe<Actions>, slot: Int, state: ActionState?) {
        self.pipe = pipe
        self.slot = slot
        self.state = state
    }

    /// Runs the action along the chain; the last action that ran gives the result, `nil` when none ran.
    @inlinable @discardableResult @_disfavoredOverload
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        pipe.perform(slot: slot, state: state, repeat each arguments)
    }

    /// For an optional result: one optional, `nil` when no action ran or the last one returned `nil`.
    @inlinable @discardableResult
    public func callAsFunction<Wrapped>(_ arguments: repeat each Argument) -> Wrapped? where Result == Wrapped? {
        // Typed: perform's result type is its own generic parameter, which `?? nil` alone would infer as Wrapped.
        let outcome: Wrapped?? = pipe.perform(slot: slot, state: state, repeat each arguments)
        return outcome ?? nil
    }

    /// Runs the action along the chain, awaiting async actions in order.
    @discardableResult @_disfavoredOverload
    public func callAsync(_ arguments: repeat each Argument) async -> Result? {
        await pipe.performAsync(slot: slot, state: state, repeat each arguments)
    }

    @discardableResult
    public func callAsync<Wrapped>(_ arguments: repeat each Argument) async -> Wrapped? where Result == Wrapped? {
        let outcome: Wrapped?? = await pipe.performAsync(slot: slot, state: state, repeat each arguments)
        return outcome ?? nil
    }
}

/// A pipe seen through a state filter (``ActionPipe/doWithState(_:)``): its calls run only the actions whose state
/// shares a bit with ``state``, plus the actions registered without a state.
@dynamicMemberLookup
public struct StatefulActionPipe<Actions: Sendable>: Sendable {
    public let pipe: ActionPipe<Actions>
    public let state: ActionState

    @inlinable
    public subscript<each Argument, Result>(
        dynamicMember key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> ActionCall<Actions, repeat each Argument, Result> {
        ActionCall(pipe: pipe, slot: pipe.actions[keyPath: key].slot, state: state)
    }

    @inlinable @discardableResult @_disfavoredOverload
    public func call<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                            _ arguments: repeat each Argument) -> Result? {
        pipe.perform(slot: pipe.actions[keyPath: key].slot, state: state, repeat each arguments)
    }

    @inlinable @discardableResult
    public func call<each Argument, Wrapped>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>,
                                             _ arguments: repeat each Argument) -> Wrapped? {
        let slot = pipe.actions[keyPath: key].slot
        let outcome: Wrapped?? = pipe.perform(slot: slot, state: state, repeat each arguments)
        return outcome ?? nil
    }

    @discardableResult @_disfavoredOverload
    public func callAsync<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                                 _ arguments: repeat each Argument) async -> Result? {
        await pipe.performAsync(slot: pipe.actions[keyPath: key].slot, state: state, repeat each arguments)
    }

    @discardableResult
    public func callAsync<each Argument, Wrapped>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>, _ arguments: repeat each Argument
    ) async -> Wrapped? {
        let slot = pipe.actions[keyPath: key].slot
        let outcome: Wrapped?? = await pipe.performAsync(slot: slot, state: state, repeat each arguments)
        return outcome ?? nil
    }
}
