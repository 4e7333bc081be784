import RippleCore

/// How a call runs along the chain. The synchronous path is `@inlinable` so that it is specialised for the key's
/// types where it is called: no generic metadata lookups and no allocation per call.
extension ActionPipe {
    /// `tuple`: what the call's process starts with (`doWithTuple`); the plain calls pass `nil`, which folds away.
    @inlinable @inline(__always)
    func perform<each Argument, Result>(slot: Int, state: ActionState?, tuple: PipeTuple? = nil,
                                        _ arguments: repeat each Argument) -> Result? {
        // Counted as a reader of the pipe's plan, the call borrows the published plan: no lock, no retain.
        let (plan, unit) = enterPlan()
        defer { core.plan.leave(unit: unit) }
        guard let registrations = plan._withUnsafeGuaranteedRef({ $0.registrations(for: slot) }) else { return nil }
        // The frame lives on this stack. The process reaches it only under its lock, and only until `endSyncCall`
        // (inside this closure, so before the frame goes) detaches it: a process kept beyond the call gets a heap
        // copy, a pooled one none.
        var frame = CallFrame<repeat each Argument, Result>(arguments: (repeat each arguments))
        // A return value an action replaced, released once the process's lock is let go (its deinit may be user
        // code that uses the process). Trivial types fold it away.
        var replaced: Result? = nil
        let result = withUnsafeMutablePointer(to: &frame) { frame in
            let (calls, pooled) = ActionProcess.beginSyncCall(
                on: threadCalls, frame: UnsafeMutableRawPointer(frame),
                access: FrameAccessor<repeat each Argument, Result>.self, state: state, slot: slot, entry: self)
            if let tuple {
                ActionProcess.startTuple(tuple, in: pooled)
            }
            let result = pooled.borrow { process in
                runSync(registrations, process: process, frame: frame, state: state, replaced: &replaced)
            }
            ActionProcess.endSyncCall(calls)
            return result
        }
        // The call's lock is let go: the frame (arguments an action replaced, the last return value) and the value
        // the last store replaced go from here on, not before (see `releasedAfterUnlock`).
        releasedAfterUnlock(frame)
        releasedAfterUnlock(replaced)
        return result
    }

    /// Runs the registrations in chain order on the calling thread. On entry and on return the call holds the
    /// process's lock; it lets it go only while an action runs (actions may use the process, call pipes and
    /// re-chain, from any thread). Returns what the last action that ran returned.
    @inlinable
    func runSync<each Argument, Result>(
        _ registrations: UnsafeBufferPointer<Unmanaged<AnyObject>>, process: ActionProcess,
        frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>, state: ActionState?,
        replaced: inout Result?
    ) -> Result? {
        // The plan stays alive for the whole loop (the call is counted as its reader), so its registrations are
        // borrowed, not retained.
        for erased in registrations {
            // A slot identifies one key type, so every registration under it is exactly a
            // `Registration<repeat each Argument, Result>` (checked under RIPPLE_INTERNAL_CHECKS).
            #if RIPPLE_INTERNAL_CHECKS
            precondition(type(of: erased.takeUnretainedValue()) == Registration<repeat each Argument, Result>.self,
                         "RipplePipes: a registration of another key's type under a call's slot")
            #endif
            let typed = Unmanaged<Registration<repeat each Argument, Result>>.fromOpaque(erased.toOpaque())
            typed._withUnsafeGuaranteedRef { registration in
                run(registration, process: process, frame: frame, state: state, replaced: &replaced)
            }
        }
        return frame.pointee.lastReturn
    }

    /// One step of `runSync`; called and returns with the process's lock held.
    @inlinable @inline(__always)
    func run<each Argument, Result>(
        _ registration: Registration<repeat each Argument, Result>, process: ActionProcess,
        frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>, state: ActionState?,
        replaced: inout Result?
    ) {
        guard registration.isUnconditional || registration.admits(process, callState: state) else { return }
        // The bodies are called in place (`!`), not bound with `if let`: a binding copies the closure, and the copy
        // retains and releases its context around the call.
        // The copy of the arguments an action gets is scoped to the action: it may be the last reference to an
        // argument (another action replaced it in the frame meanwhile), and it must go before the lock is taken
        // again. Releases are moved only earlier, never past the end of their scope, so the scope's end is the bound.
        if registration.hasPlainBody {
            let value: Result
            do {
                let arguments = frame.pointee.arguments
                letGo(process, &replaced)
                value = registration.plainBody!.call(process, repeat each arguments)
            }
            process.lockState()
            store(value, in: frame, replaced: &replaced)
        } else if registration.hasBody {
            let value: Result?
            do {
                let arguments = frame.pointee.arguments
                letGo(process, &replaced)
                value = registration.body!(process, repeat each arguments)
            }
            process.lockState()
            if let value {
                store(value, in: frame, replaced: &replaced)
            }
        } else {
            letGo(process, &replaced)
            process.asyncActionInPlainCall()
        }
    }

    /// Before an action runs: lets the process's lock go, then releases the return value the last store replaced.
    @inlinable @inline(__always)
    func letGo<Result>(_ process: ActionProcess, _ replaced: inout Result?) {
        let old = replaced.take()
        process.unlockState()
        releasedAfterUnlock(old)
    }

    /// With the lock held: makes `value` the call's last return, keeping the one it replaces in `replaced` (nil here:
    /// every store follows a `letGo`) so that it is released after the lock.
    @inlinable @inline(__always)
    func store<each Argument, Result>(
        _ value: Result, in frame: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>,
        replaced: inout Result?
    ) {
        var incoming: Result? = value
        swap(&incoming, &frame.pointee.lastReturn)
        replaced = incoming
    }

    func performAsync<each Argument, Result>(slot: Int, state: ActionState?, tuple: PipeTuple? = nil,
                                             _ arguments: repeat each Argument) async -> Result? {
        // An async call keeps its own references rather than staying counted as a reader across its awaits.
        let (plan, unit) = enterPlan()
        let borrowed = plan._withUnsafeGuaranteedRef { $0.registrations(for: slot) }
        let registrations = borrowed.map { ContiguousArray($0.lazy.map { $0.takeUnretainedValue() }) }
        core.plan.leave(unit: unit)
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
            // Exact type: a slot identifies one key type, and `Registration` is a final class.
            #if RIPPLE_INTERNAL_CHECKS
            precondition(type(of: erased) == Registration<repeat each Argument, Result>.self,
                         "RipplePipes: a registration of another key's type under a call's slot")
            #endif
            let registration = unsafeDowncast(erased, to: Registration<repeat each Argument, Result>.self)
            let value: Result??
            do {
                // Scoped like the synchronous path's copy: it goes before the lock is taken again.
                process.lockState()
                let admitted = registration.admits(process, callState: state)
                guard admitted else {
                    process.unlockState()
                    continue
                }
                let arguments = frame.pointee.arguments
                process.unlockState()
                if let body = registration.asyncBody {
                    value = await body(process, repeat each arguments)
                } else if let body = registration.plainBody {
                    value = .some(body.call(process, repeat each arguments))
                } else {
                    value = registration.body?(process, repeat each arguments)
                }
            }
            if let value, let value {
                // The value it replaces goes after the lock (its deinit may use the process).
                var replaced: Result? = value
                process.lock.withLock { swap(&replaced, &frame.pointee.lastReturn) }
                releasedAfterUnlock(replaced)
            }
        }
        return process.lock.withLock { frame.pointee.lastReturn }
    }
}
