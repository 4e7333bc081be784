import RippleCore

/// How a call runs along the chain. The synchronous path is `@inlinable` so that it is specialised for the key's
/// types where it is called: no generic metadata lookups and no allocation per call.
extension ActionPipe {
    /// `tuple`: what the call's process starts with (`doWithTuple`); the plain calls pass `nil`, which folds away.
    @inlinable @inline(__always)
    func perform<each Argument, Result>(slot: Int, state: ActionState?, tuple: PipeTuple? = nil,
                                        _ arguments: repeat each Argument) -> Result? {
        // Counted as a reader of the pipe's plan, the call borrows the published plan: no lock, no retain.
        let plan = core.plan.enter() ?? publishPlan()
        defer { core.plan.leave() }
        guard let registrations = plan._withUnsafeGuaranteedRef({ $0.registrations(for: slot) }) else { return nil }
        // The frame lives on this stack; a process kept beyond the call gets a heap copy when the call ends.
        var frame = CallFrame<repeat each Argument, Result>(arguments: (repeat each arguments))
        return withUnsafeMutablePointer(to: &frame) { frame in
            let (calls, pooled) = ActionProcess.beginSyncCall(
                on: threadCalls, frame: UnsafeMutableRawPointer(frame),
                access: FrameAccessor<repeat each Argument, Result>.self, state: state, slot: slot, entry: self)
            if let tuple {
                ActionProcess.startTuple(tuple, in: pooled)
            }
            let (result, shared) = runSync(registrations, pooled: pooled, frame: frame, state: state)
            ActionProcess.endSyncCall(calls, knownUnique: !shared)
            return result
        }
    }

    /// Runs the registrations in chain order on the calling thread. Between actions the call owns its process: by
    /// holding the only strong reference (`pooled`, checked after every action) or, once an action handed the
    /// process to someone else, by holding its lock. Neither is held while an action runs (actions may use the
    /// process, call pipes and re-chain). Returns the call's result and whether the process was shared when the last
    /// action returned (when it was not, nobody can have taken it since).
    @inlinable
    func runSync<each Argument, Result>(
        _ registrations: UnsafeBufferPointer<Unmanaged<AnyObject>>, pooled: UnsafeMutablePointer<ActionProcess>,
        frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>, state: ActionState?
    ) -> (result: Result?, shared: Bool) {
        UnsafeMutableRawPointer(pooled).load(as: Unmanaged<ActionProcess>.self)._withUnsafeGuaranteedRef { process in
            var locked = false
            // The plan stays alive for the whole loop (the call is counted as its reader), so its registrations are
            // borrowed, not retained.
            for erased in registrations {
                // Safe: a slot identifies one key type, so every registration under it has these types.
                let typed = Unmanaged<Registration<repeat each Argument, Result>>.fromOpaque(erased.toOpaque())
                typed._withUnsafeGuaranteedRef { registration in
                    run(registration, process: process, pooled: pooled, locked: &locked, frame: frame, state: state)
                }
            }
            let result = frame.pointee.lastReturn
            if locked {
                process.unlockState()
            }
            return (result, locked)
        }
    }

    /// One step of `runSync`; on entry and on return the call owns the process (`locked` tells how).
    @inlinable @inline(__always)
    func run<each Argument, Result>(
        _ registration: Registration<repeat each Argument, Result>, process: ActionProcess,
        pooled: UnsafeMutablePointer<ActionProcess>, locked: inout Bool,
        frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>, state: ActionState?
    ) {
        guard registration.isUnconditional || registration.admits(process, callState: state) else { return }
        // The bodies are called in place (`!`), not bound with `if let`: a binding copies the closure, and the copy
        // retains and releases its context around the call.
        if registration.hasPlainBody {
            let arguments = frame.pointee.arguments
            letGo(process, &locked)
            let value = registration.plainBody!.call(process, repeat each arguments)
            reclaim(process, pooled: pooled, &locked)
            frame.pointee.lastReturn = value
        } else if registration.hasBody {
            let arguments = frame.pointee.arguments
            letGo(process, &locked)
            let value = registration.body!(process, repeat each arguments)
            reclaim(process, pooled: pooled, &locked)
            if let value {
                frame.pointee.lastReturn = value
            }
        } else {
            letGo(process, &locked)
            process.asyncActionInPlainCall()
        }
    }

    /// Before an action runs: unlocks the process if the call holds its lock.
    @inlinable @inline(__always)
    func letGo(_ process: ActionProcess, _ locked: inout Bool) {
        if locked {
            process.unlockState()
            locked = false
        }
    }

    /// After an action ran: takes the process back, without the lock when the pool holds the only strong reference
    /// (nobody else can reach it; the acquiring load orders this after anyone who used it and let it go).
    @inlinable @inline(__always)
    func reclaim(_ process: ActionProcess, pooled: UnsafeMutablePointer<ActionProcess>, _ locked: inout Bool) {
        if isKnownUniquelyReferenced(&pooled.pointee) {
            process.synchronizeState()
        } else {
            process.lockState()
            locked = true
        }
    }

    func performAsync<each Argument, Result>(slot: Int, state: ActionState?, tuple: PipeTuple? = nil,
                                             _ arguments: repeat each Argument) async -> Result? {
        // An async call keeps its own references rather than staying counted as a reader across its awaits.
        let plan = core.plan.enter() ?? publishPlan()
        let borrowed = plan._withUnsafeGuaranteedRef { $0.registrations(for: slot) }
        let registrations = borrowed.map { ContiguousArray($0.lazy.map { $0.takeUnretainedValue() }) }
        core.plan.leave()
        guard let registrations else { return nil }
        let box = FrameBox<repeat each Argument, Result>(CallFrame(arguments: (repeat each arguments)))
        let process = ActionProcess(
            asyncCall: box, frame: UnsafeMutableRawPointer(box.pointer),
            access: FrameAccessor<repeat each Argument, Result>.self, state: state, slot: slot, entry: self)
        if let tuple {
            process.tuple = tuple
        }
        let result = await ActionProcess.$taskCurrent.withValue(process) {
            await runAsync(registrations, process: process, frame: box.pointer, state: state)
        }
        process.lock.withLock { process.callEnded = true }
        return result
    }

    /// Runs the registrations in chain order, awaiting async actions. The lock is never held across an `await`.
    func runAsync<each Argument, Result>(
        _ registrations: ContiguousArray<AnyObject>, process: ActionProcess,
        frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>, state: ActionState?
    ) async -> Result? {
        for erased in registrations {
            let registration = unsafeDowncast(erased, to: Registration<repeat each Argument, Result>.self)
            process.lockState()
            let admitted = registration.admits(process, callState: state)
            let arguments = frame.pointee.arguments
            process.unlockState()
            guard admitted else { continue }
            let value: Result??
            if let body = registration.asyncBody {
                value = await body(process, repeat each arguments)
            } else if let body = registration.plainBody {
                value = .some(body.call(process, repeat each arguments))
            } else {
                value = registration.body?(process, repeat each arguments)
            }
            if let value, let value {
                process.lock.withLock { frame.pointee.lastReturn = value }
            }
        }
        return process.lock.withLock { frame.pointee.lastReturn }
    }
}
