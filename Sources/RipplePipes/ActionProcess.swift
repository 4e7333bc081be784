import RippleCore

/// The context of one call along a chain: what upstream actions returned and handed down, and the arguments as they
/// stand now.
///
/// An action receives it as its closure's first parameter, and any code running inside an action (a helper it calls,
/// a nested call, code after an `await` in an async action) reads it as ``ActionProcess/current``. Outside a call
/// ``ActionProcess/current`` is `nil`; a nested call sees its own process and the outer one is back when it returns.
///
/// A process belongs to its call. Keeping it (a strong reference) after the call is fine: it keeps the call's final
/// state. Synchronous calls reuse a released process for the next call on the same thread, so hold it strongly, not
/// weakly or `unowned`, if you keep it.
///
/// `@unchecked Sendable`: every mutable property is only touched under `lock`, except by a synchronous call while
/// it holds the only strong reference to its process (checked with `isKnownUniquelyReferenced`, as copy-on-write
/// does): then no other thread can reach the process, and the call orders itself after the last critical section
/// with an acquiring load of the lock. This is why a kept process must be held strongly.
public final class ActionProcess: @unchecked Sendable {
    /// The process of the call the current code runs inside, or `nil` outside every call.
    ///
    /// Synchronous calls publish their process per thread, async calls (`callAsync`) per task: inside a
    /// synchronous call this is that call's process; elsewhere it is the process of the async call the current task
    /// runs, if any.
    public static var current: ActionProcess? {
        if let process = SyncCalls.innermost {
            return process
        }
        return taskCurrent
    }

    /// Set only by an async call, for exactly its duration, so no process outlives its call here.
    @TaskLocal static var taskCurrent: ActionProcess?

    /// Guards every `var` below while the process is shared (see the type's comment).
    @usableFromInline let lock = RawLock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) var storedTuple = PipeTuple()
    /// Guarded by `lock`. Whether `storedTuple` was written during the call, so the end of a call, inlined into the
    /// caller, tests a flag instead of asking the tuple (an outlined call) whether it has values to release.
    @usableFromInline @exclusivity(unchecked) var tupleWritten = false
    /// Guarded by `lock`. The call's ``CallFrame``, read and changed through `access`; nil while pooled.
    @usableFromInline @exclusivity(unchecked) var frame: UnsafeMutableRawPointer?
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var access: (any FrameAccess.Type)?
    /// Guarded by `lock`. The heap frame `frame` points into, for async calls and processes kept after their call.
    @exclusivity(unchecked) var frameOwner: AnyObject?
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var storedState: ActionState?
    /// Guarded by `lock`. The key's interned slot: the name is looked up only when asked for.
    @usableFromInline @exclusivity(unchecked) var slot = 0
    /// Guarded by `lock`. The pipe a synchronous call went through, alive for the whole call.
    @usableFromInline @exclusivity(unchecked) var unretainedEntry: Unmanaged<AnyObject>?
    /// Guarded by `lock`. The pipe an async call went through, or a kept process's pipe.
    @exclusivity(unchecked) var retainedEntry: AnyObject?
    /// Guarded by `lock`. Set when the call ended while this process was still referenced (kept, or an async call's).
    @exclusivity(unchecked) var callEnded = false

    /// A pooled process, set up by each synchronous call that uses it.
    init() {}

    /// The process of an async call, owning its heap frame.
    init(asyncCall frameOwner: AnyObject, frame: UnsafeMutableRawPointer, access: any FrameAccess.Type,
         state: ActionState?, slot: Int, entry: AnyObject) {
        self.frameOwner = frameOwner
        self.frame = frame
        self.access = access
        self.storedState = state
        self.slot = slot
        self.retainedEntry = entry
    }

    /// The state the call was made with (``ActionPipe/doWithState(_:)``), or `nil` for a call without state.
    public var state: ActionState? {
        lock.withLock { storedState }
    }

    /// The name of the action being called.
    public var actionName: String {
        ActionSlots.name(of: lock.withLock { slot })
    }

    /// Extra values for the actions downstream in this call (the seed's `tmpTuple`).
    public var tuple: PipeTuple {
        get { lock.withLock { storedTuple } }
        set {
            lock.withLock {
                storedTuple = newValue
                tupleWritten = true
            }
        }
    }

    /// Changes the tuple in place, under the process's lock.
    public func updateTuple(_ body: (inout PipeTuple) -> Void) {
        lock.withLock {
            tupleWritten = true
            body(&storedTuple)
        }
    }

    /// What the last action that ran in this call returned, optionals flattened; `nil` before any action ran.
    public var upstreamReturnValue: Any? {
        lock.withLock { lockedUpstream() }
    }

    /// The upstream return value when it is a `T`.
    public func upstreamReturn<T>(as type: T.Type = T.self) -> T? {
        upstreamReturnValue as? T
    }

    /// How many arguments the action takes.
    public var argumentCount: Int {
        lock.withLock { access?.argumentCount ?? 0 }
    }

    /// The argument at a 1-based position (as in `.param(_:kindOf:)`), as it stands now.
    public func argument(at index: Int) -> Any? {
        requireArgumentIndex(index, "ActionProcess.argument(at:)")
        return lock.withLock { lockedArgument(at: index) }
    }

    /// Replaces the argument at a 1-based position for every action after this one in the call (the seed's
    /// `changeArgumentOld:toNew:`), and tells whether it did: `false` once the call has ended (a process kept after
    /// its call), when no later action can see the change.
    ///
    /// The value must have the argument's type; another type stops with a programmer error naming the argument,
    /// its type and the value's.
    @discardableResult
    public func changeArgument<Value>(at index: Int, to value: Value) -> Bool {
        requireArgumentIndex(index, "ActionProcess.changeArgument(at:to:)")
        let (applied, mismatch) = lock.withLock { () -> (Bool, String?) in
            guard !callEnded, let frame, let access else { return (false, nil) }
            let mismatch = access.replaceArgument(frame, at: index, with: value)
            return (mismatch == nil, mismatch)
        }
        if let expected = mismatch {
            let name = actionName
            let label = argumentLabel(in: name, at: index).map { " (\($0))" } ?? ""
            programmerError("ActionProcess.changeArgument(at:to:) needs a \(expected) for argument \(index)\(label) "
                            + "of \(name), got \(type(of: value as Any))")
        }
        return applied
    }

    /// The pipe the call went through, typed; calling it again runs the chain from its head.
    public func root<Actions: Sendable>(as actions: Actions.Type = Actions.self) -> ActionPipe<Actions>? {
        let entry = lock.withLock { retainedEntry ?? unretainedEntry?.takeUnretainedValue() }
        return entry as? ActionPipe<Actions>
    }

    private func requireArgumentIndex(_ index: Int, _ api: String) {
        let count = argumentCount
        if !(1...max(count, 1)).contains(index) || count == 0 {
            programmerError("\(api) needs an index in 1...\(count) for \(actionName), got \(index)")
        }
    }

    /// Whether the upstream action threw: the last return value is a failed `Result` (a `throws` method's key, see
    /// ``ActionRegistration/throwingAction(_:)``). Throwing actions after it are skipped, so the call throws it.
    public var upstreamFailed: Bool {
        (upstreamReturnValue as? any ResultOutcome)?.isFailure ?? false
    }

    /// Call with `lock` held.
    func lockedUpstream() -> Any? {
        guard let frame, let access else { return nil }
        return access.upstream(frame)
    }

    /// Call with `lock` held.
    func lockedArgument(at index: Int) -> Any? {
        guard let frame, let access else { return nil }
        return access.argument(frame, at: index)
    }

    /// `lock.lock()`, for the inlined call loop.
    @inlinable @inline(__always)
    func lockState() {
        lock.lock()
    }

    @inlinable @inline(__always)
    func unlockState() {
        lock.unlock()
    }

    @inlinable @inline(__always)
    func synchronizeState() {
        lock.synchronize()
    }

    /// Stops a plain call that reached an async action. Call without `lock` held.
    @usableFromInline
    func asyncActionInPlainCall() -> Never {
        programmerError("ActionPipe: \(actionName) has an async action; call it with callAsync")
    }

    // MARK: Synchronous calls

    /// Takes this thread's free process for a synchronous call, sets it up for `frame` and publishes it as
    /// ``current``. Returns this thread's calls and the pool slot holding the process: while the slot holds the only
    /// strong reference, the call may touch the process without its lock. Pair with ``endSyncCall(_:)``.
    @inlinable @inline(__always)
    static func beginSyncCall(
        on threadCalls: ThreadLocal<SyncCalls>, frame: UnsafeMutableRawPointer, access: any FrameAccess.Type,
        state: ActionState?, slot: Int, entry: AnyObject
    ) -> (calls: Unmanaged<SyncCalls>, process: UnsafeMutablePointer<ActionProcess>) {
        let calls = threadCalls.unretained(orMake: SyncCalls.init)
        let pooled = calls._withUnsafeGuaranteedRef { $0.push() }
        // A free process is referenced by the pool only (`pop` replaces any other), so no lock is needed.
        UnsafeMutableRawPointer(pooled).load(as: Unmanaged<ActionProcess>.self)._withUnsafeGuaranteedRef { process in
            process.lock.synchronize()
            process.frame = frame
            process.access = access
            process.storedState = state
            process.slot = slot
            process.unretainedEntry = Unmanaged.passUnretained(entry)
        }
        return (calls, pooled)
    }

    /// Ends the innermost synchronous call of this thread (its process's lock is not held). A process nobody else
    /// holds goes back to the pool; one still referenced (kept by an action) gets a heap copy of the frame and keeps
    /// it. `knownUnique`: the call saw the pool's reference as the only one after its last action.
    @inlinable @inline(__always)
    static func endSyncCall(_ calls: Unmanaged<SyncCalls>, knownUnique: Bool) {
        calls._withUnsafeGuaranteedRef { $0.pop(knownUnique: knownUnique) }
    }

    /// Gives a synchronous call's process its starting tuple (`doWithTuple`). Call right after `beginSyncCall`, while
    /// the pool holds the only reference.
    @usableFromInline
    static func startTuple(_ tuple: PipeTuple, in pooled: UnsafeMutablePointer<ActionProcess>) {
        let process = pooled.pointee
        process.storedTuple = tuple
        process.tupleWritten = true
    }

    /// Releases the tuple's values before the process is reused. Call as `resetForReuse` does.
    @usableFromInline
    func clearTuple() {
        storedTuple = PipeTuple()
        tupleWritten = false
    }

    /// Call with `lock` held, at the end of a call, when something else still references this process.
    @usableFromInline
    func keepAfterCall() {
        if let frame, let access {
            let (owner, copy) = access.box(copying: frame)
            frameOwner = owner
            self.frame = copy
        }
        retainedEntry = unretainedEntry?.takeUnretainedValue()
        unretainedEntry = nil
        callEnded = true
    }

    /// Call with `lock` held (or owning the only reference), at the end of a call, when nothing else references this
    /// process.
    @inlinable @inline(__always)
    func resetForReuse() {
        if tupleWritten {
            clearTuple()
        }
        frame = nil
        access = nil
        unretainedEntry = nil
    }
}

/// The label of a 1-based argument in an action's name, for messages: `object` in `someFunc(number:object:)`,
/// `object:` in the selector `someFuncWithNumber:object:`; nil when the name has no such part or it is `_`.
func argumentLabel(in name: String, at index: Int) -> String? {
    if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
        let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
            .split(separator: ":", omittingEmptySubsequences: false).dropLast()
        guard labels.indices.contains(labels.startIndex + index - 1) else { return nil }
        let label = labels[labels.startIndex + index - 1]
        return label == "_" ? nil : String(label)
    }
    let pieces = name.split(separator: ":", omittingEmptySubsequences: false).dropLast()
    guard pieces.indices.contains(pieces.startIndex + index - 1) else { return nil }
    return pieces[pieces.startIndex + index - 1] + ":"
}

/// Any `Result`, whatever its types: how ``ActionProcess/upstreamFailed`` recognises a failure.
protocol ResultOutcome {
    var isFailure: Bool { get }
}

extension Result: ResultOutcome {
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
