import RippleCore

/// A pipe of typed actions (the seed's `ZZActionPipe`): register actions on it, chain it with other pipes, and call
/// an action on any pipe of the chain as if it were a method.
///
/// ```swift
/// let pipe = ActionPipe(ShareActions())
/// pipe.registerAction(\.someFunc).action { process, number, object in
///     print("number _ \(number) , objc _ \(object)")
///     return 100
/// }
/// let result = pipe.someFunc(999, [1, 2, 3])     // or pipe.call(\.someFunc, 999, [1, 2, 3])
/// ```
///
/// A call runs every registered action of the chain in chain order, from the head, whichever pipe it went through;
/// its result is the return value of the last action that ran, `nil` when none ran.
///
/// Thread-safe: register, chain and call from any thread. No lock is held while an action runs, so actions may call
/// pipes (the same chain included) and register actions.
///
/// `@unchecked Sendable`: `storedChain` and `link` are only touched under `pipeGraphLock`; everything else is
/// immutable or guards itself (`core`).
@dynamicMemberLookup
public final class ActionPipe<Actions: Sendable>: @unchecked Sendable {
    /// The keys this pipe answers to.
    public let actions: Actions
    @usableFromInline let core: PipeCore
    /// `syncCallsOfThisThread`, copied here so that a call reads a field of the pipe instead of going through the
    /// global's one-time-initialisation check (a function call and `swift_once` on every call).
    @usableFromInline let threadCalls = syncCallsOfThisThread
    /// Guarded by `pipeGraphLock`; may be a chain that merged into another (read it through `currentChain`).
    @exclusivity(unchecked) private var storedChain: PipeChain
    /// Guarded by `pipeGraphLock`; this pipe's place in its chain (see ``ChainLink``).
    @exclusivity(unchecked) private var link: ChainLink

    public init(_ actions: Actions) {
        self.actions = actions
        let core = PipeCore()
        self.core = core
        link = ChainLink(core: core)
        storedChain = PipeChain(link: link)
        livePipes.increment()
    }

    deinit {
        livePipes.decrement()
    }

    // MARK: Calling

    /// The action as a method of the pipe: `pipe.someFunc(999, object)`.
    @inlinable
    public subscript<each Argument, Result>(
        dynamicMember key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> ActionCall<Actions, repeat each Argument, Result> {
        ActionCall(pipe: self, slot: actions[keyPath: key].slot, state: nil)
    }

    /// Calls an action along the chain; returns what the last action that ran returned, or `nil` when none ran.
    @inlinable @discardableResult @_disfavoredOverload
    public func call<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                            _ arguments: repeat each Argument) -> Result? {
        perform(slot: actions[keyPath: key].slot, state: nil, repeat each arguments)
    }

    /// Calls an action whose result is optional: one optional, `nil` when no action ran or the last one returned
    /// `nil` (tell them apart with ``responds(to:)`` or the process, if it matters).
    @inlinable @discardableResult
    public func call<each Argument, Wrapped>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>,
                                             _ arguments: repeat each Argument) -> Wrapped? {
        // Typed: perform's result type is its own generic parameter, which `?? nil` alone would infer as Wrapped.
        let outcome: Wrapped?? = perform(slot: actions[keyPath: key].slot, state: nil, repeat each arguments)
        return outcome ?? nil
    }

    /// Calls an action along the chain, awaiting async actions (`asyncAction`) in order.
    @discardableResult @_disfavoredOverload
    public func callAsync<each Argument, Result>(_ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>,
                                                 _ arguments: repeat each Argument) async -> Result? {
        await performAsync(slot: actions[keyPath: key].slot, state: nil, repeat each arguments)
    }

    @discardableResult
    public func callAsync<each Argument, Wrapped>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Wrapped?>>, _ arguments: repeat each Argument
    ) async -> Wrapped? {
        let outcome: Wrapped?? = await performAsync(slot: actions[keyPath: key].slot, state: nil, repeat each arguments)
        return outcome ?? nil
    }

    /// Calls that run only the actions whose state shares a bit with `state`, plus the actions without a state. An
    /// empty `state` (0) is a programmer error: it would select no action registered with a state.
    public func doWithState(_ state: ActionState) -> StatefulActionPipe<Actions> {
        state.requireSomeBit("ActionPipe.doWithState(_:)", instead: ActionState.emptyCallAdvice)
        return StatefulActionPipe(pipe: self, state: state)
    }

    /// Counts the caller in as a reader of `core.plan` and borrows the published plan, building and publishing it
    /// first when there is none. Leave with `core.plan.leave(unit:)` and the unit returned; until then the plan
    /// stays alive.
    @inlinable @inline(__always)
    func enterPlan() -> (plan: Unmanaged<CallPlan>, unit: Int) {
        let (published, unit) = core.plan.enter()
        return (published ?? publishPlan(), unit)
    }

    /// Builds and publishes the plan of this pipe's chain, for a reader of `core.plan` that found none published
    /// (see ``enterPlan()``).
    @usableFromInline
    func publishPlan() -> Unmanaged<CallPlan> {
        pipeGraphLock.withLock {
            if let published = core.plan.loadPublished() {
                return published
            }
            return Unmanaged.passUnretained(currentChain.publishPlan(on: core))
        }
    }

    /// The chain this pipe is in now, following merges. Call with `pipeGraphLock` held.
    var currentChain: PipeChain {
        var chain = storedChain
        while let next = chain.forward {
            chain = next
        }
        if chain !== storedChain {
            storedChain = chain
        }
        return chain
    }

    // MARK: Registering

    /// Starts registering an action for `key`; add requirements, then finish with `action`, `delegate`, ….
    /// Registering a key again replaces the earlier action.
    public func registerAction<each Argument, Result>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> ActionRegistration<Actions, repeat each Argument, Result> {
        ActionRegistration(pipe: self, key: actions[keyPath: key])
    }

    /// Removes this pipe's action for `key`; the other pipes of the chain keep theirs.
    public func unregisterAction<each Argument, Result>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) {
        let slot = actions[keyPath: key].slot
        editGraph { garbage in
            if let old = core.registrations.removeValue(forKey: slot) {
                garbage.append(contentsOf: old)
            }
            currentChain.invalidate(into: &garbage)
        }
    }

    /// Whether some pipe of this pipe's chain has an action for `key` (the seed's `respondsToSelector:`): whether a
    /// call may run one. Requirements and states are not checked; they are decided per call.
    ///
    /// Answered from the chain's published call plan, read as a call reads it (no lock, O(1)); when none is
    /// published it is built as the next call would build it. Walking the chain's pipes instead cost its length on
    /// every question.
    public func responds<each Argument, Result>(
        to key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> Bool {
        let slot = actions[keyPath: key].slot
        let (plan, unit) = enterPlan()
        defer { core.plan.leave(unit: unit) }
        return plan._withUnsafeGuaranteedRef { $0.registrations(for: slot) != nil }
    }

    /// Whether this pipe (not its chain) has an action for `key`; ``responds(to:)`` asks the whole chain.
    public func hasAction<each Argument, Result>(
        _ key: KeyPath<Actions, ActionKey<repeat each Argument, Result>>
    ) -> Bool {
        let slot = actions[keyPath: key].slot
        return pipeGraphLock.withLock { core.registrations[slot] != nil }
    }

    func install(_ registration: AnyObject, slot: Int) {
        editGraph { garbage in
            if let old = core.registrations.updateValue([registration], forKey: slot) {
                garbage.append(contentsOf: old)
            }
            currentChain.invalidate(into: &garbage)
        }
    }

    // MARK: Chaining

    /// Appends `pipe`'s whole chain (from its head) after the tail of this pipe's chain, and returns `pipe`, so
    /// `pipe1.addPipe(pipe2).addPipe(pipe3)` builds pipe1 → pipe2 → pipe3.
    ///
    /// Every pipe of the appended chain is re-rooted: calling through any of them runs the merged chain from its
    /// head. Adding a pipe that is already in this chain (this pipe included) would make a cycle and stops with a
    /// programmer error.
    @discardableResult
    public func addPipe(_ pipe: ActionPipe<Actions>) -> ActionPipe<Actions> {
        let cycleLength = editGraph { garbage -> Int? in
            let mine = currentChain
            let theirs = pipe.currentChain
            guard mine !== theirs else { return mine.count }
            // The shorter chain's links join the longer one's, at its tail or its head: copying the longer into the
            // shorter made a chain built from its tail (each pipe joined to the chain after it) cost n² (100,000
            // pipes never finished). A pipe then follows at most log₂ n `forward` links, compressed on use. Empty
            // links count: they are what a merge moves.
            if mine.links.count >= theirs.links.count {
                mine.append(linksOf: theirs)
                theirs.forward = mine
            } else {
                theirs.prepend(linksOf: mine)
                mine.forward = theirs
            }
            theirs.invalidate(into: &garbage)
            mine.invalidate(into: &garbage)
            return nil
        }
        if let count = cycleLength {
            programmerError("ActionPipe.addPipe(_:) would make a cycle: the pipe is already in this chain "
                            + "(\(count) pipe\(count == 1 ? "" : "s"))")
        }
        return pipe
    }

    /// Takes this pipe out of its chain; the other pipes stay chained in their order, and this pipe stands alone
    /// with its own actions.
    public func removeFromChain() {
        editGraph { garbage in
            let old = currentChain
            guard old.count > 1 else { return }
            old.invalidate(into: &garbage)
            // Empties this pipe's link where it stands: no search of the chain.
            old.remove(link)
            garbage.append(old)
            link = ChainLink(core: core)
            storedChain = PipeChain(link: link)
        }
    }

    /// The number of pipes in this pipe's chain.
    public var chainLength: Int {
        pipeGraphLock.withLock { currentChain.count }
    }

    /// One pipe holding every action of `pipes`, in order (the first pipe's actions for a key run before the
    /// second's). The sources are left as they were: their actions and chains are unchanged.
    public static func bundle(_ pipes: [ActionPipe<Actions>]) -> ActionPipe<Actions> {
        guard let first = pipes.first else {
            programmerError("ActionPipe.bundle(_:) needs at least one pipe, got 0")
        }
        let bundled = ActionPipe(first.actions)
        editGraph { garbage in
            for pipe in pipes {
                for (slot, registrations) in pipe.core.registrations {
                    bundled.core.registrations[slot, default: []].append(contentsOf: registrations)
                }
            }
            bundled.currentChain.invalidate(into: &garbage)
        }
        return bundled
    }
}
