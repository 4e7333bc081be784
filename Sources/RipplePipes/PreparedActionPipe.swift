/// A pipe seen with a starting state and tuple (the seed's `doWithTuple` and `doWithStateAndTuple`), and what the
/// proxies of `@ActionProtocol` call through.
///
/// Its calls run like the pipe's, except that actions see ``state`` as ``ActionProcess/state`` (and only the actions
/// whose state shares a bit with it run, plus those without a state, as with ``ActionPipe/doWithState(_:)``), and
/// the call's ``ActionProcess/tuple`` starts as ``tuple`` instead of empty.
///
/// ```swift
/// pipe.doWithTuple(PipeTuple(date, "Robot No.999")).someFunc(999, nil)
/// pipe.doWithStateAndTuple(1 | 10, ["user": user]).someFunc(0, nil)
/// ```
///
/// `@unchecked Sendable`: the tuple's values are `Any` and are not checked. Each call copies the tuple into its own
/// process, which hands it to the actions as ``ActionProcess/tuple`` does, on whatever thread the call runs.
@dynamicMemberLookup
public struct PreparedActionPipe<Actions: Sendable>: @unchecked Sendable {
    public let pipe: ActionPipe<Actions>
    /// `nil`: every action runs, whatever its state.
    public let state: ActionState?
    /// `nil`: calls start with an empty tuple.
    public let tuple: PipeTuple?

    public init(pipe: ActionPipe<Actions>, state: ActionState?, tuple: PipeTuple?) {
        self.pipe = pipe
        self.state = state
        self.tuple = tuple
    }

    public subscript<each Argument, Result>(
        dynamicMember key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> PreparedActionCall<Actions, repeat each Argument, Result> {
        PreparedActionCall(prepared: self, slot: pipe.actions[keyPath: key].slot)
    }

    /// Calls an action along the chain; the last action that ran gives the result, `nil` when none ran.
    @discardableResult @_disfavoredOverload
    public func call<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                            _ arguments: repeat each Argument) -> Result? {
        rawCall(key, repeat each arguments)
    }

    /// Calls an action whose result is optional: one optional, `nil` when none ran or the last one returned `nil`.
    @discardableResult
    public func call<each Argument, Wrapped>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>,
                                             _ arguments: repeat each Argument) -> Wrapped? {
        rawCall(key, repeat each arguments) ?? nil
    }

    @discardableResult @_disfavoredOverload
    public func callAsync<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                                 _ arguments: repeat each Argument) async -> Result? {
        await rawCallAsync(key, repeat each arguments)
    }

    @discardableResult
    public func callAsync<each Argument, Wrapped>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>, _ arguments: repeat each Argument
    ) async -> Wrapped? {
        await rawCallAsync(key, repeat each arguments) ?? nil
    }

    /// The call as it ran, without flattening an optional result: `nil` when no action ran, else the last action's
    /// return value (what the proxies of `@ActionProtocol` build their results from).
    public func rawCall<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                               _ arguments: repeat each Argument) -> Result? {
        pipe.perform(slot: pipe.actions[keyPath: key].slot, state: state, tuple: tuple, repeat each arguments)
    }

    /// ``rawCall(_:_:)``, awaiting async actions in order.
    public func rawCallAsync<each Argument, Result>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>, _ arguments: repeat each Argument
    ) async -> Result? {
        await pipe.performAsync(slot: pipe.actions[keyPath: key].slot, state: state, tuple: tuple,
                                repeat each arguments)
    }
}

/// An action of a ``PreparedActionPipe``, ready to be called like a method.
public struct PreparedActionCall<Actions: Sendable, each Argument, Result> {
    let prepared: PreparedActionPipe<Actions>
    let slot: Int

    @discardableResult @_disfavoredOverload
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        prepared.pipe.perform(slot: slot, state: prepared.state, tuple: prepared.tuple, repeat each arguments)
    }

    /// For an optional result: one optional, `nil` when no action ran or the last one returned `nil`.
    @discardableResult
    public func callAsFunction<Wrapped>(_ arguments: repeat each Argument) -> Wrapped? where Result == Wrapped? {
        // Typed: perform's result type is its own generic parameter, which `?? nil` alone would infer as Wrapped.
        let outcome: Wrapped?? = prepared.pipe.perform(slot: slot, state: prepared.state, tuple: prepared.tuple,
                                                       repeat each arguments)
        return outcome ?? nil
    }

    @discardableResult @_disfavoredOverload
    public func callAsync(_ arguments: repeat each Argument) async -> Result? {
        await prepared.pipe.performAsync(slot: slot, state: prepared.state, tuple: prepared.tuple,
                                         repeat each arguments)
    }

    @discardableResult
    public func callAsync<Wrapped>(_ arguments: repeat each Argument) async -> Wrapped? where Result == Wrapped? {
        let outcome: Wrapped?? = await prepared.pipe.performAsync(
            slot: slot, state: prepared.state, tuple: prepared.tuple, repeat each arguments)
        return outcome ?? nil
    }
}

extension ActionPipe {
    /// Calls whose process starts with `tuple` (the seed's `doWithTuple`): the first action already reads its values.
    public func doWithTuple(_ tuple: PipeTuple) -> PreparedActionPipe<Actions> {
        PreparedActionPipe(pipe: self, state: nil, tuple: tuple)
    }

    /// Calls made with `state` whose process starts with `tuple` (the seed's `doWithStateAndTuple`).
    public func doWithStateAndTuple(_ state: ActionState, _ tuple: PipeTuple) -> PreparedActionPipe<Actions> {
        state.requireSomeBit("ActionPipe.doWithStateAndTuple(_:_:)", instead: ActionState.emptyCallAdvice)
        return PreparedActionPipe(pipe: self, state: state, tuple: tuple)
    }
}

extension StatefulActionPipe {
    /// These calls, with a process that starts with `tuple`: `pipe.doWithState(1).doWithTuple(tuple)`.
    public func doWithTuple(_ tuple: PipeTuple) -> PreparedActionPipe<Actions> {
        PreparedActionPipe(pipe: pipe, state: state, tuple: tuple)
    }
}
