import RippleCore

/// The builder `registerAction(_:)` returns (the seed's `ActionRequirement`): add requirements, then finish with the
/// action's body (`action`, `asyncAction`) or a responder (`delegate`, `strongDelegate`, `upstreamReturnAsTarget`).
///
/// ```swift
/// pipe2.registerAction(\.someFunc)
///     .returnKind(of: Date.self)          // runs only when the upstream returned a Date
///     .action { process, number, object in … }
/// ```
///
/// Requirements are checked for every call against the call as it stands when this action's turn comes (arguments
/// changed upstream, the return value of the last action that ran). Nothing is registered until a finishing method
/// runs; registering a key again replaces this pipe's earlier action for it.
public struct ActionRegistration<Actions: Sendable, each Argument, Result> {
    let pipe: ActionPipe<Actions>
    let key: ActionKey<repeat each Argument, Result>
    var requiredState: ActionState?
    var requirements: [ActionRequirement] = []

    init(pipe: ActionPipe<Actions>, key: ActionKey<repeat each Argument, Result>) {
        self.pipe = pipe
        self.key = key
    }

    // MARK: Requirements

    /// Runs only in calls without state or made through `doWithState(_:)` with a state sharing a bit with `state`.
    /// An empty `state` (0) is a programmer error: no `doWithState(_:)` call could select the action.
    public func state(_ state: ActionState) -> Self {
        state.requireSomeBit("ActionRegistration.state(_:) for \(key.name)",
                             instead: "no doWithState(_:) call could select the action; leave state(_:) out to run it "
                                + "in every call")
        var copy = self
        copy.requiredState = state
        return copy
    }

    /// Runs only when the upstream return value (of the last action that ran before it) is a `T`.
    public func returnKind<T>(of type: T.Type) -> Self {
        adding(.returnKind { $0 is T })
    }

    /// Runs only when the upstream return value is not `nil` (nothing upstream ran counts as `nil`).
    public func returnNotNil() -> Self {
        adding(.returnNotNil)
    }

    /// Runs only when argument `index` (1-based, as in the seed) is a `T`.
    public func param<T>(_ index: Int, kindOf type: T.Type) -> Self {
        checkIndex(index, "param(_:kindOf:)")
        return adding(.paramKind(index) { $0 is T })
    }

    /// Runs only when argument `index` (1-based) is not `nil`.
    public func paramNotNil(_ index: Int) -> Self {
        checkIndex(index, "paramNotNil(_:)")
        return adding(.paramNotNil(index))
    }

    private func adding(_ requirement: ActionRequirement) -> Self {
        var copy = self
        copy.requirements.append(requirement)
        return copy
    }

    private func checkIndex(_ index: Int, _ api: String) {
        let count = key.argumentCount
        guard count > 0, (1...count).contains(index) else {
            let range = count == 0 ? "no index (it takes no arguments)" : "an index in 1...\(count)"
            programmerError("ActionRegistration.\(api) for \(key.name) needs \(range), got \(index)")
        }
    }

    // MARK: Finishing

    /// Registers `body` as the action. It gets the call's ``ActionProcess`` first, then the arguments.
    public func action(_ body: @escaping @Sendable (ActionProcess, repeat each Argument) -> Result) {
        install(plainBody: body, body: nil, asyncBody: nil)
    }

    /// Registers an async action; it runs in `callAsync` calls (a plain call reaching it stops with an error).
    public func asyncAction(_ body: @escaping @Sendable (ActionProcess, repeat each Argument) async -> Result) {
        install(body: nil, asyncBody: { (process: ActionProcess, arguments: repeat each Argument) async -> Result? in
            await body(process, repeat each arguments)
        })
    }

    /// Registers an action that may decline a call: returning `nil` skips it, as a freed delegate is skipped (it
    /// does not count as having run and leaves the upstream return value as it was).
    public func skippableAction(_ body: @escaping @Sendable (ActionProcess, repeat each Argument) -> Result?) {
        install(body: body, asyncBody: nil)
    }

    /// ``skippableAction(_:)`` for an async action, run by `callAsync`.
    public func skippableAsyncAction(
        _ body: @escaping @Sendable (ActionProcess, repeat each Argument) async -> Result?
    ) {
        install(body: nil, asyncBody: body)
    }

    /// Registers `object` as the responder, held weakly: `body` forwards the call to it. Once `object` is freed
    /// the action is skipped (it does not run and does not change the upstream return value).
    public func delegate<Target: AnyObject & Sendable>(
        _ object: Target, _ body: @escaping @Sendable (Target, repeat each Argument) -> Result
    ) {
        let reference = WeakReference(object)
        install(body: { (_: ActionProcess, arguments: repeat each Argument) -> Result? in
            guard let object = reference.object else { return nil }
            return body(object, repeat each arguments)
        }, asyncBody: nil)
    }

    /// Registers `object` as the responder, held strongly until the action is replaced or unregistered, or the
    /// pipe's chain is freed: the chain keeps its pipes' actions, so a pipe freed while other pipes of its chain live
    /// keeps answering through them, and keeps `object`.
    public func strongDelegate<Target: AnyObject & Sendable>(
        _ object: Target, _ body: @escaping @Sendable (Target, repeat each Argument) -> Result
    ) {
        install(body: { (_: ActionProcess, arguments: repeat each Argument) -> Result? in
            body(object, repeat each arguments)
        }, asyncBody: nil)
    }

    /// Forwards the call to the object the upstream action returned (the seed's `upReturnToBeTarget`); skipped when
    /// the upstream return value is not a `Target`.
    public func upstreamReturnAsTarget<Target>(
        _ type: Target.Type, _ body: @escaping @Sendable (Target, repeat each Argument) -> Result
    ) {
        install(body: { (process: ActionProcess, arguments: repeat each Argument) -> Result? in
            guard let target = process.upstreamReturn(as: Target.self) else { return nil }
            return body(target, repeat each arguments)
        }, asyncBody: nil)
    }

    fileprivate func install(plainBody: (@Sendable (ActionProcess, repeat each Argument) -> Result)? = nil,
                             body: (@Sendable (ActionProcess, repeat each Argument) -> Result?)?,
                             asyncBody: (@Sendable (ActionProcess, repeat each Argument) async -> Result?)?) {
        let registration = Registration<repeat each Argument, Result>(
            state: requiredState, requirements: requirements, plainBody: plainBody, body: body, asyncBody: asyncBody)
        pipe.install(registration, slot: key.slot)
    }
}

/// Actions of a `throws` method: their key's result is a `Result`, whose failure is the error thrown.
///
/// The first action that throws ends the call: its failure stays the call's result (throwing actions after it are
/// skipped), and a proxy of `@ActionProtocol` rethrows it.
extension ActionRegistration {
    /// Registers a throwing action; what it throws becomes the call's result, a `.failure`.
    public func throwingAction<Success>(
        _ body: @escaping @Sendable (ActionProcess, repeat each Argument) throws -> Success
    ) where Result == Swift.Result<Success, any Error> {
        install(body: { (process: ActionProcess, arguments: repeat each Argument) -> Result? in
            guard !process.upstreamFailed else { return nil }
            return Swift.Result { try body(process, repeat each arguments) }
        }, asyncBody: nil)
    }

    /// ``throwingAction(_:)`` for an async throwing action, run by `callAsync`.
    public func asyncThrowingAction<Success>(
        _ body: @escaping @Sendable (ActionProcess, repeat each Argument) async throws -> Success
    ) where Result == Swift.Result<Success, any Error> {
        install(body: nil, asyncBody: { (process: ActionProcess, arguments: repeat each Argument) async -> Result? in
            guard !process.upstreamFailed else { return nil }
            do {
                return .success(try await body(process, repeat each arguments))
            } catch {
                return .failure(error)
            }
        })
    }
}
