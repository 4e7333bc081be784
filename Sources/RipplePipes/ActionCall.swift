/// An action bound to a pipe, ready to be called like a method: what `pipe.someFunc` is.
///
/// ```swift
/// let result = pipe.someFunc(999, [1, 2, 3])          // callAsFunction
/// let later = await pipe.someFunc.callAsync(999, nil)  // awaits async actions
/// ```
public struct ActionCall<Actions: Sendable, each Argument, Result>: Sendable {
    @usableFromInline let pipe: ActionPipe<Actions>
    @usableFromInline let key: ActionKey<repeat each Argument, Result>
    @usableFromInline let state: ActionState?

    @inlinable
    init(pipe: ActionPipe<Actions>, key: ActionKey<repeat each Argument, Result>, state: ActionState?) {
        self.pipe = pipe
        self.key = key
        self.state = state
    }

    /// Runs the action along the chain; the last action that ran gives the result, `nil` when none ran.
    @inlinable @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        pipe.perform(key, state: state, repeat each arguments)
    }

    /// Runs the action along the chain, awaiting async actions in order.
    @discardableResult
    public func callAsync(_ arguments: repeat each Argument) async -> Result? {
        await pipe.performAsync(key, state: state, repeat each arguments)
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
        ActionCall(pipe: pipe, key: pipe.actions[keyPath: key], state: state)
    }

    @inlinable @discardableResult
    public func call<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                            _ arguments: repeat each Argument) -> Result? {
        pipe.perform(pipe.actions[keyPath: key], state: state, repeat each arguments)
    }

    @discardableResult
    public func callAsync<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                                 _ arguments: repeat each Argument) async -> Result? {
        await pipe.performAsync(pipe.actions[keyPath: key], state: state, repeat each arguments)
    }
}
