import RippleCore

// Invariants: subscribing to an operator chain recurses once per operator (each operator subscribes its source from
// inside its own subscription), and delivering, completing, disposing and freeing recurse as deep. So each thread
// keeps a trampoline, as RxSwift's CurrentThreadScheduler does. The rule is counted, never read from the stack, so
// every thread (512 KiB or 8 MiB, under a sanitizer or not) takes the same decisions and every subscriber hears the
// same events in the same order:
// - The outermost subscription, checkpoint delivery, disposal or freeing on a thread is its "root": it runs its own
//   step, then every step that was queued meanwhile, first in first out, and returns only when none is left. So
//   `subscribe`, `send` and `dispose` still finish all their work before they return.
// - Every subscriber and fused state gets a `level` when it is made: one more than the thread's current `level` (the
//   subscriptions being made on this thread; an operator that subscribes from inside a callback — `then`, `catch`,
//   `retry`, an inner of `flatMap` or `flatMapLatest` — first raises it to its downstream's level, so a chain built
//   over time, one subscription per event, counts its levels as a chain built at once does).
// - A subscription `maxLevels` levels above the level where the running step began is queued for the root (its
//   subscriber is `deferred`; a fused state queues an inner signal's subscription), and runs, keeping its level,
//   after the current step returns.
// - Subscribers and fused states `deepLevel` or more levels deep are "checkpoints": each delivery, each terminal
//   event, each cleanup and each freeing of the chain they hold counts one `nested` step while it runs; once
//   `maxNested` such steps are on the stack of the running step, the next is queued for the root (a delivery through
//   the object's own ordered queue, which holds later events behind it: each subscriber still hears its events in
//   order). Along a delivery path the levels fall, so at most `deepLevel` objects between two counted steps are not
//   counted; a fused map/filter chain is cut by a checkpoint subscriber at every `Signal.fusedCutInterval`-th level.
// So one step of the trampoline recurses through at most `maxLevels` subscriptions or `maxNested + deepLevel`
// deliveries, whatever the depth of the chain. Shallow subscribers' deliveries pay one flag test.

/// The calling thread's subscription level and trampoline. Per thread, so unsynchronised.
@usableFromInline
final class SubscriptionTrampoline {
    /// Subscribers and fused states this many levels deep (or more) count their deliveries and freeing.
    @inlinable static var deepLevel: Int { 32 }
    /// Subscriptions nested this many levels above the running step's base are queued.
    static var maxLevels: Int { 32 }
    /// Counted steps (checkpoint deliveries, disposals, freeing) nested in one step before the next is queued.
    static var maxNested: Int { 32 }

    // Only touched by its own thread: no dynamic exclusivity checks (they cost ~200 instructions per subscription).
    /// The level of the subscription being made here (raised by operators subscribing from callbacks); a queued
    /// subscription keeps its level when it runs.
    @usableFromInline @exclusivity(unchecked) var level = 0
    /// The level at which the running step began (see `maxLevels`).
    @usableFromInline @exclusivity(unchecked) var stepBase = 0
    /// Counted steps on the stack of the running step (see `maxNested`).
    @usableFromInline @exclusivity(unchecked) var nested = 0
    /// Whether a root's loop is on this thread's stack, so a nested step may be queued for it.
    @usableFromInline @exclusivity(unchecked) var running = false
    @exclusivity(unchecked) private var jobs: [(level: Int, run: () -> Void)] = []
    @exclusivity(unchecked) private var next = 0

    @usableFromInline
    init() {}

    /// Queues `run` for the root, at the current level.
    func enqueue(_ run: @escaping () -> Void) {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(running, "Ripple internal check: a step was queued on a thread whose trampoline is not running")
        #endif
        jobs.append((level, run))
    }

    /// The root's loop: runs what was queued, and what that queues, in order; each step starts with no counted
    /// steps on its stack, at its own level.
    /// Whether steps wait for the root.
    var hasQueued: Bool {
        !jobs.isEmpty
    }

    func runQueued() {
        if jobs.isEmpty { return }
        while next < jobs.count {
            let job = jobs[next]
            jobs[next].run = {}
            next += 1
            let saved = (level, stepBase, nested)
            level = job.level
            stepBase = job.level
            nested = 0
            job.run()
            (level, stepBase, nested) = saved
        }
        jobs.removeAll(keepingCapacity: jobs.count <= 64)
        next = 0
    }

    /// Runs `body` as the root: queued steps run right after it.
    func runAsRoot(_ body: () -> Void) {
        #if RIPPLE_INTERNAL_CHECKS
        precondition(!running && nested == 0 && jobs.isEmpty,
                     "Ripple internal check: a second trampoline root on one thread (\(nested) nested, \(jobs.count) queued)")
        #endif
        running = true
        stepBase = level
        nested = 1
        body()
        runQueued()
        nested = 0
        running = false
    }

    /// Where a counted step goes (see the invariants above).
    @inline(__always)
    func route() -> NestedRoute {
        if !running { return .root }
        return nested >= Self.maxNested ? .queue : .run
    }

    /// Runs `body` as one counted step: now, as the root, or queued, as `route` decides.
    func step(_ body: @escaping () -> Void) {
        switch route() {
        case .run:
            nested &+= 1
            body()
            nested &-= 1
        case .root:
            runAsRoot(body)
        case .queue:
            enqueue(body)
        }
    }

    /// Disposes `cleanup` as a counted step (see `SubscriptionCore.finish`).
    func dispose(_ cleanup: Disposer) {
        switch route() {
        case .run:
            nested &+= 1
            cleanup.dispose()
            nested &-= 1
        case .root:
            runAsRoot { cleanup.dispose() }
        case .queue:
            enqueueDisposal(of: cleanup)
        }
    }

    @inline(never)
    private func enqueueDisposal(of cleanup: Disposer) {
        enqueue { cleanup.dispose() }
    }
}

/// Where a counted step goes (see `SubscriptionTrampoline`).
enum NestedRoute {
    /// Run it now, counted; a root is already running.
    case run
    /// Run it now as the root: nothing runs the trampoline on this thread yet.
    case root
    /// Queue it for the running root: `maxNested` counted steps are already on the stack.
    case queue
}

@usableFromInline
let subscriptionTrampolines = ThreadLocal<SubscriptionTrampoline>()

/// The calling thread's `SubscriptionTrampoline`, made on first use.
@usableFromInline @inline(__always)
func currentTrampoline() -> TrampolineReference {
    if let trampoline = subscriptionTrampolines.unretained {
        return TrampolineReference(trampoline)
    }
    return installTrampoline()
}

/// The calling thread's first subscription: makes its `SubscriptionTrampoline`.
@usableFromInline @inline(never)
func installTrampoline() -> TrampolineReference {
    TrampolineReference(subscriptionTrampolines.unretained(orMake: { SubscriptionTrampoline() }))
}

/// The calling thread's `SubscriptionTrampoline`, held without a reference count.
///
/// Invariant: it is only reached on the thread whose trampoline it is, so the thread-local that owns the trampoline
/// for the thread's lifetime keeps it alive, and nothing else touches its unsynchronised fields. Checked under
/// `RIPPLE_INTERNAL_CHECKS` on every use. (Unmanaged rather than a strong reference: a subscriber keeps the
/// trampoline it entered, and a retain and release per subscription and per counted step were measurable on the
/// creating rows.)
@usableFromInline @frozen
struct TrampolineReference {
    @usableFromInline let reference: Unmanaged<SubscriptionTrampoline>

    @inlinable
    init(_ reference: Unmanaged<SubscriptionTrampoline>) {
        self.reference = reference
    }

    /// Calls `body` with the trampoline, without retaining it.
    @inlinable @inline(__always)
    func with<Result>(_ body: (SubscriptionTrampoline) -> Result) -> Result {
        #if RIPPLE_INTERNAL_CHECKS
        checkOwnThread(reference)
        #endif
        return reference._withUnsafeGuaranteedRef(body)
    }
}

#if RIPPLE_INTERNAL_CHECKS
/// `TrampolineReference`'s invariant: `reference` is the calling thread's trampoline.
@usableFromInline
func checkOwnThread(_ reference: Unmanaged<SubscriptionTrampoline>) {
    precondition(subscriptionTrampolines.unretained?.toOpaque() == reference.toOpaque(),
                 "Ripple internal check: a SubscriptionTrampoline was reached from another thread than its own")
}
#endif

/// Enters one more level of subscription (see `SubscriptionTrampoline`): returns the thread's trampoline, the new
/// subscriber's flags (`SubscriberFlags`) and its level. Decrementing the trampoline's `level` leaves it.
func enterSubscription() -> (TrampolineReference, UInt8, UInt32) {
    let state = currentTrampoline()
    let (flags, level) = state.with { trampoline -> (UInt8, UInt32) in
        var flags: UInt8 = 0
        if !trampoline.running {
            trampoline.running = true
            trampoline.stepBase = trampoline.level
            flags = SubscriberFlags.root
        } else if trampoline.level &- trampoline.stepBase >= SubscriptionTrampoline.maxLevels {
            flags = SubscriberFlags.deferred
        }
        trampoline.level &+= 1
        if trampoline.level >= SubscriptionTrampoline.deepLevel { flags |= SubscriberFlags.checkpoint }
        return (flags, UInt32(truncatingIfNeeded: min(trampoline.level, Int(UInt32.max))))
    }
    return (state, flags, level)
}

/// Enters one more level for a fused state (`FusedState.enterLevel`): returns the trampoline and the level; the
/// caller leaves it by decrementing `level` once its source is attached.
@usableFromInline @inline(never)
func enterFusedLevel() -> (TrampolineReference, UInt32) {
    let state = currentTrampoline()
    let level = state.with { trampoline -> Int in
        trampoline.level &+= 1
        return trampoline.level
    }
    return (state, UInt32(truncatingIfNeeded: min(level, Int(UInt32.max))))
}

/// Runs `body` (a subscription made from inside a callback) with the thread's level raised to at least `level`,
/// the level of the subscriber or state the new subscription delivers to (see `SubscriptionTrampoline`).
@usableFromInline @inline(never)
func subscribing<Result>(above level: UInt32, _ body: () -> Result) -> Result {
    let state = currentTrampoline()
    let saved = state.with { trampoline -> Int in
        let saved = trampoline.level
        trampoline.level = max(saved, Int(level))
        return saved
    }
    defer { state.with { $0.level = saved } }
    return body()
}

/// Makes the caller a root if none runs (see `SubscriptionTrampoline`): for subscribing to a fused map/filter
/// chain or a `just`, which makes no subscriber of its own at the top. Pass the result to `endRoot`.
@usableFromInline @inline(never)
func beginRoot() -> Bool {
    currentTrampoline().with { trampoline in
        if trampoline.running { return false }
        trampoline.running = true
        trampoline.stepBase = trampoline.level
        return true
    }
}

/// Ends what `beginRoot` began: runs what was queued.
@usableFromInline @inline(never)
func endRoot(_ began: Bool) {
    guard began else { return }
    currentTrampoline().with { trampoline in
        trampoline.runQueued()
        trampoline.running = false
    }
}

/// The flags a subscriber gets when it is made (see `enterSubscription`).
@usableFromInline
enum SubscriberFlags {
    /// It started this thread's trampoline: its `attach` runs what was queued.
    @inlinable static var root: UInt8 { 1 }
    /// Its subscription must be queued for the running root.
    @inlinable static var deferred: UInt8 { 2 }
    /// Its deliveries, cleanup and release are counted steps.
    @inlinable static var checkpoint: UInt8 { 4 }
}
