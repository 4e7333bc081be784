import RippleCore
import Synchronization

/// The part of a subscription that its ``Disposer`` shares with its ``SignalSubscriber``: the state word, the lock, and the
/// cleanup the signal's action returned. It *is* the disposer `subscribe` returns (one object fewer per subscription).
///
/// The disposer is the core, not the subscriber, so it needs no weak reference to the subscriber (a weak reference
/// gives the subscriber a side-table reference count, and then every retain and release of it takes the runtime's
/// slow path) and a forgotten disposer does not keep the subscriber alive. The subscriber disposes its core when it
/// is freed, so a disposer still sees the subscription end then.
/// `@unchecked Sendable`: `finished` and `cleanup` are guarded by `lock`, `state` is atomic.
@usableFromInline
final class SubscriptionCore: Disposer, @unchecked Sendable {
    /// Bits: `closed` (a terminal event was accepted or the subscription disposed), `delivering` (some thread is
    /// running a callback; others queue), `hasQueue` (events wait in the subscriber's queue; set only under `lock`
    /// and only while `delivering`, cleared with it under `lock`).
    let state = Atomic<Int>(0)
    static var closed: Int { 1 }
    static var delivering: Int { 2 }
    static var hasQueue: Int { 4 }

    let lock = RawLock()
    #if RIPPLE_INTERNAL_CHECKS
    /// Callbacks of the subscriber running now (at most one), and whether its terminal event was delivered.
    let callbacksRunning = Atomic<Int>(0)
    let terminalDelivered = Atomic<Bool>(false)
    #endif
    /// True once the cleanup is due (terminal event delivered, or disposed). Guarded by `lock`.
    @exclusivity(unchecked) var finished = false
    @exclusivity(unchecked) private var cleanup: Disposer?

    @usableFromInline
    init() {
        super.init()
    }

    /// Whether events sent now would be ignored (ended or disposed).
    var isClosed: Bool {
        state.load(ordering: .acquiring) & Self.closed != 0
    }

    /// True once the subscription ended: a terminal event was accepted, or it was disposed or released.
    override var isDisposed: Bool {
        isClosed
    }

    /// Ends the subscription: nothing more is delivered, the cleanup runs (once).
    override func dispose() {
        lock.lock()
        state.bitwiseOr(Self.closed, ordering: .acquiringAndReleasing)
        finish()
    }

    /// Checks the state word's invariants before a callback of the subscriber runs (`RIPPLE_INTERNAL_CHECKS`): this
    /// thread is delivering; no other callback runs; nothing follows the terminal event, which comes after
    /// `closed`.
    @inline(__always)
    func checkCallback(terminal: Bool) {
        #if RIPPLE_INTERNAL_CHECKS
        let word = state.load(ordering: .acquiring)
        precondition(word & ~(Self.closed | Self.delivering | Self.hasQueue) == 0 && word & Self.delivering != 0,
                     "Ripple internal check: a SignalSubscriber callback ran outside delivering (state \(word))")
        precondition(callbacksRunning.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0,
                     "Ripple internal check: two callbacks of one SignalSubscriber ran at once")
        precondition(!terminalDelivered.load(ordering: .acquiring),
                     "Ripple internal check: a SignalSubscriber callback ran after its terminal event")
        if terminal {
            precondition(word & Self.closed != 0, "Ripple internal check: a terminal event delivered before closing")
            terminalDelivered.store(true, ordering: .releasing)
        }
        #endif
    }

    /// The callback `checkCallback` checked returned.
    @inline(__always)
    func checkCallbackReturned() {
        #if RIPPLE_INTERNAL_CHECKS
        callbacksRunning.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        #endif
    }

    /// Called with `lock` held; releases it. Runs the cleanup once.
    func finish() {
        #if RIPPLE_INTERNAL_CHECKS
        let word = state.load(ordering: .acquiring)
        precondition(word & Self.closed != 0, "Ripple internal check: a subscription finished without closing (\(word))")
        precondition(word & Self.hasQueue == 0 || word & Self.delivering != 0,
                     "Ripple internal check: hasQueue without delivering (state \(word))")
        #endif
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        let taken = cleanup
        cleanup = nil
        lock.unlock()
        if let taken {
            // A cleanup is often the next subscription's core: disposing a chain recurses once per operator, so
            // each is a counted step of the trampoline (see `SubscriptionTrampoline`). No closure unless queued.
            currentTrampoline().with { $0.dispose(taken) }
        }
    }

    /// Keeps `disposer` as the cleanup; runs it at once if the subscription already finished.
    func attach(_ disposer: Disposer) {
        // `Disposer.empty` (and `.nothing`) has nothing to release: keeping it cost the lock, a reference count and,
        // in `finish`, the depth check (callgrind, SubjectCreating 2,714 → 2,561 instructions). The test reads a
        // stored flag (a type comparison called the metadata accessor, ~9 instructions on every subscription), and
        // also drops a plain disposer whose cleanup already ran, which disposing again would not have touched.
        if disposer.hasNothingToRelease { return }
        lock.lock()
        guard !finished else {
            lock.unlock()
            disposer.dispose()
            return
        }
        cleanup = disposer
        lock.unlock()
    }
}
