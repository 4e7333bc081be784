import RippleCore

/// The context of one call along a chain: what upstream actions returned and handed down, and the arguments as they
/// stand now.
///
/// An action receives it as its closure's first parameter, and any code running inside an action (a helper it calls,
/// a nested call, code after an `await` in an async action) reads it as ``ActionProcess/current``. Outside a call
/// ``ActionProcess/current`` is `nil`; a nested call sees its own process and the outer one is back when it returns.
///
/// A process belongs to its call. Keeping it (a strong reference) after the call is fine: it keeps the call's final
/// state (a copy of the arguments and the last return value) and ``changeArgument(at:to:)`` returns `false`.
/// Synchronous calls reuse a released process for the next call on the same thread, so hold it strongly, not
/// weakly or `unowned`, if you keep it: a weak or unowned reference may see the process empty (no arguments, no
/// upstream value) or in the middle of a later call on that thread, and a strong reference made from it, held when
/// that later call ends, keeps that call's final state (its tuple and pipe too) as any strong reference does.
///
/// `@unchecked Sendable`: every mutable property is read and written under `lock` only, by the call as by anyone
/// else. A synchronous call holds the lock from its start to its end except while one of its actions runs; its
/// arguments and return value live on the caller's stack, reached through `frame`, and the end of the call (under
/// the lock, before that stack frame goes) either points `frame` at a heap copy, when something still references
/// the process, or clears it. So whoever holds the lock and finds `frame` set reads a live frame, on any thread,
/// however the process was kept (strongly, weakly, unowned, in a global).
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
        // A task started inside an async action (`Task { }`) inherits the task-local and may run on after the call:
        // it must not see the ended call's process.
        guard let process = taskCurrent, !process.lock.withLock({ process.callEnded }) else { return nil }
        return process
    }

    /// Set only by an async call, for its duration; a task it started inherits it, which ``current`` checks
    /// (`callEnded`), so no process is current after its call.
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
    @usableFromInline @exclusivity(unchecked) var entry: CallEntry?
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
            var replaced = newValue
            lock.withLock {
                swap(&replaced, &storedTuple)
                tupleWritten = true
            }
            releasedAfterUnlock(replaced)
        }
    }

    /// Changes the tuple in place, under the process's lock. `body` changes a copy, which then replaces the tuple,
    /// so that the values `body` drops are released after the lock, like the setter's.
    public func updateTuple(_ body: (inout PipeTuple) -> Void) {
        let replaced = lock.withLock {
            tupleWritten = true
            var updated = storedTuple
            body(&updated)
            swap(&updated, &storedTuple)
            return updated
        }
        releasedAfterUnlock(replaced)
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

    /// The argument at a 1-based position (as in `.param(_:kindOf:)`), as it stands now (once the call ended, as
    /// it stood then); an index outside the key's arguments stops with a programmer error naming it.
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
        let outcome = lock.withLock { () -> Swift.Result<Any, ArgumentMismatch>? in
            guard !callEnded, let frame, let access else { return nil }
            return access.replaceArgument(frame, at: index, with: value)
        }
        // The replaced arguments are released here, after the lock.
        if case .failure(let mismatch) = outcome {
            let expected = mismatch.expected
            let name = actionName
            let label = argumentLabel(in: name, at: index).map { " (\($0))" } ?? ""
            programmerError("ActionProcess.changeArgument(at:to:) needs a \(expected) for argument \(index)\(label) "
                            + "of \(name), got \(type(of: value as Any))")
        }
        if case .success = outcome { return true }
        return false
    }

    /// The pipe the call went through, typed; calling it again runs the chain from its head.
    public func root<Actions: Sendable>(as actions: Actions.Type = Actions.self) -> ActionPipe<Actions>? {
        let pipe = lock.withLock { retainedEntry ?? entry?.object }
        return pipe as? ActionPipe<Actions>
    }

    /// A process between calls (reached through a weak or unowned reference to a pooled one) has no arguments to
    /// index: its accessors answer `nil`/`false` instead.
    private func requireArgumentIndex(_ index: Int, _ api: String) {
        guard let count = lock.withLock({ access?.argumentCount }) else { return }
        if !(1...max(count, 1)).contains(index) || count == 0 {
            // As `ActionRegistration`'s check words it: an action without arguments has no range to name ("1...0").
            let range = count == 0 ? "no index (it takes no arguments)" : "an index in 1...\(count)"
            programmerError("\(api) needs \(range) for \(actionName), got \(index)")
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

    /// Stops a plain call that reached an async action. Call without `lock` held.
    @usableFromInline
    func asyncActionInPlainCall() -> Never {
        programmerError("ActionPipe: \(actionName) has an async action; call it with callAsync")
    }

    // MARK: Synchronous calls

    /// Takes this thread's free process for a synchronous call, takes its lock, sets it up for `frame` and
    /// publishes it as ``current``. Returns this thread's calls and the pool slot holding the process (the slot keeps
    /// it alive until `endSyncCall`). The lock stays held: pair with ``endSyncCall(_:)``, which lets it go.
    @inlinable @inline(__always)
    static func beginSyncCall(
        on threadCalls: ThreadLocal<SyncCalls>, frame: UnsafeMutableRawPointer, access: any FrameAccess.Type,
        state: ActionState?, slot: Int, entry: AnyObject
    ) -> (calls: BorrowedSyncCalls, process: PooledProcess) {
        let calls = BorrowedSyncCalls(threadCalls.unretained(orMake: SyncCalls.init), of: threadCalls)
        let pooled = calls.with { $0.push() }
        pooled.borrow { process in
            process.lock.lock()
            process.frame = frame
            process.access = access
            process.storedState = state
            process.slot = slot
            process.entry = CallEntry(entry)
        }
        return (calls, pooled)
    }

    /// Ends the innermost synchronous call of this thread; its process's lock is held on entry and let go here. A
    /// process nobody else holds goes back to the pool; one still referenced (kept by an action) gets a heap copy of
    /// the frame and keeps it.
    @inlinable @inline(__always)
    static func endSyncCall(_ calls: BorrowedSyncCalls) {
        calls.with { $0.pop() }
    }

    /// Gives a synchronous call's process its starting tuple (`doWithTuple`). Call right after `beginSyncCall`, with
    /// the lock it took.
    @usableFromInline
    static func startTuple(_ tuple: PipeTuple, in pooled: PooledProcess) {
        pooled.borrow { process in
            process.storedTuple = tuple
            process.tupleWritten = true
        }
    }

    /// Call with `lock` held, at the end of a call, when something else still references this process.
    @usableFromInline
    func keepAfterCall() {
        if let frame, let access {
            let (owner, copy) = access.box(copying: frame)
            frameOwner = owner
            self.frame = copy
        }
        retainedEntry = entry?.object
        entry = nil
        callEnded = true
    }

    /// Call with `lock` held, at the end of a call, when nothing else references this process. Returns the tuple
    /// the call wrote, to be released after the lock is let go (its values' deinits may use the process).
    @inlinable @inline(__always)
    func resetForReuse() -> PipeTuple? {
        frame = nil
        access = nil
        entry = nil
        return tupleWritten ? takeTuple() : nil
    }

    @usableFromInline
    func takeTuple() -> PipeTuple {
        tupleWritten = false
        var taken = PipeTuple()
        swap(&taken, &storedTuple)
        return taken
    }
}

/// The strong reference a call's ``SyncCalls`` slot holds to its process, borrowed without a retain.
///
/// Invariant: from `SyncCalls.push()` to the `pop()` of the same call, the slot holds a strong reference to the
/// process (only `pop` replaces it), so a borrow inside that span reads a live object. Checked under
/// RIPPLE_INTERNAL_CHECKS: the slot still holds the same process after each borrow.
@usableFromInline @frozen
struct PooledProcess {
    @usableFromInline let slot: UnsafeMutablePointer<ActionProcess>

    @inlinable
    init(slot: UnsafeMutablePointer<ActionProcess>) {
        self.slot = slot
    }

    /// Runs `body` with the process, not retained (a retain and release per call cost ~20 % of a one-action call).
    @inlinable @inline(__always)
    func borrow<T>(_ body: (ActionProcess) -> T) -> T {
        // `Unmanaged<ActionProcess>` has the layout of the strong reference stored in the slot.
        let result = UnsafeMutableRawPointer(slot).load(as: Unmanaged<ActionProcess>.self)
            ._withUnsafeGuaranteedRef { process in
                #if RIPPLE_INTERNAL_CHECKS
                let before = ObjectIdentifier(process)
                defer { precondition(ObjectIdentifier(slot.pointee) == before, "RipplePipes: a pooled process moved") }
                #endif
                return body(process)
            }
        return result
    }
}

/// The pipe a synchronous call went through, not retained.
///
/// Invariant: set only by `beginSyncCall` with the pipe running the call (which the caller holds for the whole
/// call) and cleared or turned into a strong reference (`keepAfterCall`) by the end of that call, under the
/// process's lock. Checked under RIPPLE_INTERNAL_CHECKS: a weak reference beside it must still be alive when read.
@usableFromInline @frozen
struct CallEntry {
    @usableFromInline unowned(unsafe) let unretained: AnyObject
    #if RIPPLE_INTERNAL_CHECKS
    @usableFromInline weak var check: AnyObject?
    #endif

    @inlinable @inline(__always)
    init(_ entry: AnyObject) {
        unretained = entry
        #if RIPPLE_INTERNAL_CHECKS
        check = entry
        #endif
    }

    @usableFromInline
    var object: AnyObject {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(check != nil, "RipplePipes: a call's pipe was read after it was freed")
        #endif
        return unretained
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

/// Marks where a value that user code may own, taken out of a process under its lock, may be released: not before
/// this point, which follows the unlock. Its deinit may use the process (`ActionProcess.current`), and releasing it
/// while this thread holds the lock would wait for itself.
///
/// Why this is needed: the optimiser releases a value as early as after its last use, and an unlock (an atomic
/// store to the lock's word) is no use of the value, so a release written after the unlock could be hoisted above
/// it (it was, in release builds: KeptProcessTests hung). `withExtendedLifetime` is a use the optimiser keeps, and
/// releases are only ever moved earlier, so the release lands between this point and the end of the caller's scope.
/// Free for trivial types.
@inlinable @inline(__always)
func releasedAfterUnlock<T>(_ value: borrowing T) {
    withExtendedLifetime(value) {}
}
