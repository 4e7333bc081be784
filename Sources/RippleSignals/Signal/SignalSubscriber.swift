import RippleCore
import Synchronization

/// Every live `SignalSubscriber`. A tally, not a `LiveObjectCounter`: statically laid out, it spares every
/// subscription two `swift_once`s and two calls (callgrind, SubjectCreating 2,879 → 2,844 instructions).
let subscriberTally = LiveObjectTally()

/// Makes "Signal.SignalSubscriber" visible to `RippleDiagnostics`: called once, by the first subscriber made.
@inline(never)
func registerSubscriberTally() {
    subscriberTally.register("Signal.SignalSubscriber") { subscriberTally.count }
}

/// Counts a subscriber made by `SignalSubscriber.init`, which is inlinable and cannot name the package-level counter.
/// A subscriber is made right before its subscription's action runs and attached right after, so it also enters
/// one level of subscription (see `SubscriptionTrampoline`); ``SignalSubscriber/attach(_:)`` leaves it. Here rather than around the action in `Signal.subscribe(_:)`, which is inlined into every operator:
/// code there made the optimiser stop inlining it (callgrind, FlatMapsCreating: 12,750 instructions per chain
/// against 11,332 without the check; here it costs ~30 per subscription).
@usableFromInline
func countSubscriberMade() -> (TrampolineReference, UInt8, UInt32) {
    subscriberTally.increment(registering: registerSubscriberTally)
    return enterSubscription()
}

/// Receives a signal's events and enforces the grammar: values, then at most one error *or* completion.
///
/// A signal's action gets one subscriber per subscription and may call it from any thread:
/// - nothing is delivered after an error or a completion, and only the first terminal event counts;
/// - values sent concurrently are delivered one at a time, in the order they were accepted, none lost: whichever
///   thread finds the subscriber idle delivers, and drains what other threads queued meanwhile;
/// - a value sent from inside a callback (re-entrantly) is queued and delivered after that callback returns;
/// - callbacks never run under an internal lock;
/// - the cleanup returned by the signal's action runs exactly once: on disposal, right after the terminal event's
///   callback, or when the subscriber is freed.
@_fixed_layout
public final class SignalSubscriber<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    enum Event: Sendable {
        case value(Value)
        case error(Failure)
        case complete
    }

    /// The state word, lock and cleanup, shared with the ``Disposer`` that `subscribe` returns (see
    /// ``SubscriptionCore``). The state word lets an uncontended value in and out with one compare-exchange each;
    /// the lock is only taken on contention, re-entrancy, terminal events and disposal. Everything below is guarded
    /// by `core.lock`, which already excludes concurrent access, so it skips dynamic exclusivity checks.
    @usableFromInline let core = SubscriptionCore()
    // `queue` is only touched by the `@inline(never)` helpers below: any mention of `Event` or `[Event]` in `send` or
    // `drain` makes them fetch that generic metadata (a locked hash-map lookup) on every value, even when nothing is
    // queued. `queued` mirrors `queue.count` so the idle path can check for work without naming the array.
    @usableFromInline @exclusivity(unchecked) var queue: [Event] = []
    @usableFromInline @exclusivity(unchecked) var queued = 0
    @usableFromInline @exclusivity(unchecked) var head = 0

    @usableFromInline let onValue: (@Sendable (Value) -> Void)?
    @usableFromInline let onError: (@Sendable (Failure) -> Void)?
    @usableFromInline let onComplete: (@Sendable () -> Void)?
    /// The trampoline whose level this subscriber entered when it was made (its thread's), left when it is attached:
    /// kept rather than looked up again (a second thread-local lookup per subscription).
    @usableFromInline let nesting: TrampolineReference
    /// `SubscriberFlags`: root, deferred, checkpoint (see `SubscriptionTrampoline`). Written only before the
    /// subscriber is handed to an action, so other threads read it unsynchronised.
    @usableFromInline @exclusivity(unchecked) var flags: UInt8
    /// Its level (see `SubscriptionTrampoline`): operators that subscribe from its callbacks raise the thread's level
    /// to it. Next to `flags`, in the same word: the object does not grow.
    @usableFromInline let level: UInt32
    /// Copies of the callbacks, set by `deinit` when this subscriber starts freeing a deep chain: declared last, so
    /// it is destroyed after the callbacks, and its own `deinit` frees what they held as a root (see
    /// `CallbackRelease`).
    @exclusivity(unchecked) var releaseLast: CallbackRelease?

    // Inlinable so that it runs specialised where the subscriber is made: unspecialised, initialising `queue`
    // looks up the metadata of `[Event]`.
    @inlinable
    init(value: (@Sendable (Value) -> Void)?,
         error: (@Sendable (Failure) -> Void)?,
         complete: (@Sendable () -> Void)?) {
        onValue = value
        onError = error
        onComplete = complete
        (nesting, flags, level) = countSubscriberMade()
    }

    deinit {
        // Freed without a terminal event or disposal: nobody can send any more, so release the resources now. Once
        // closed, whoever closed it finishes (a disposal, or the terminal event's delivery, which held this
        // subscriber): a plain load then saves the lock and the read-modify-write of `dispose()` (two atomic
        // operations, ~40 cycles, on every subscription that ended normally).
        if !core.isClosed {
            core.dispose()
        }
        subscriberTally.decrement()
        if flags & SubscriberFlags.checkpoint != 0 {
            releaseDeep()
        }
    }

    /// Freeing a checkpoint subscriber frees the chain its callbacks hold, recursively: that is a counted step of
    /// the trampoline, taken when `releaseLast` is freed, after the callbacks themselves.
    private func releaseDeep() {
        releaseLast = CallbackRelease(onValue, onError, onComplete)
    }

    /// Sends a value. Ignored after an error, a completion or disposal.
    public func send(_ value: Value) {
        // Idle, accepting, nothing queued: deliver at once.
        let entered = core.state.compareExchange(
            expected: 0, desired: SubscriptionCore.delivering, ordering: .acquiring).exchanged
        if entered {
            deliverEntered(value)
            return
        }
        sendContended(value)
    }

    /// Ends the signal with `error`. Ignored if it already ended or was disposed.
    public func sendError(_ error: Failure) {
        switch closeForTerminalEvent() {
        case .ignore:
            return
        case .queue:
            enqueue(error: error)
            core.lock.unlock()
        case .deliver:
            if flags & SubscriberFlags.checkpoint != 0 {
                errorAtCheckpoint(error)
                return
            }
            // No `drain()`: nothing was queued when this closed (see `TerminalRoute.deliver`), and nothing can be
            // once closed, so there is no queue to clear, and `delivering` may stay set on a finished subscriber.
            deliverError(error)
        }
    }

    /// Ends the signal normally. Ignored if it already ended or was disposed.
    public func sendComplete() {
        switch closeForTerminalEvent() {
        case .ignore:
            return
        case .queue:
            enqueueComplete()
            core.lock.unlock()
        case .deliver:
            if flags & SubscriberFlags.checkpoint != 0 {
                completeAtCheckpoint()
                return
            }
            deliverComplete()  // No `drain()`: see `sendError(_:)`.
        }
    }

    /// Whether events sent now would be ignored (ended or disposed). Long-running producers can poll it to stop early.
    public var isDisposed: Bool {
        core.isClosed
    }

    /// Ends the subscription: queued events are dropped, nothing more is delivered, the cleanup runs (once).
    public func dispose() {
        core.dispose()
    }

    // MARK: - Internals

    /// The slow path of `send`: another thread (or this one, re-entrantly) is delivering, or the subscriber closed.
    private func sendContended(_ value: Value) {
        core.lock.lock()
        var current = core.state.load(ordering: .acquiring)
        while true {
            if current & SubscriptionCore.closed != 0 {
                core.lock.unlock()
                return
            }
            if current & SubscriptionCore.delivering != 0 {
                let (exchanged, now) = core.state.compareExchange(
                    expected: current, desired: current | SubscriptionCore.hasQueue, ordering: .acquiringAndReleasing)
                if exchanged {
                    enqueue(value: value)
                    core.lock.unlock()
                    return
                }
                current = now
                continue
            }
            let (exchanged, now) = core.state.compareExchange(
                expected: current, desired: current | SubscriptionCore.delivering, ordering: .acquiringAndReleasing)
            if exchanged {
                core.lock.unlock()
                deliverEntered(value)
                return
            }
            current = now
        }
    }

    /// Accepts a terminal event: sets `closed` (and `delivering` unless another thread delivers). `.queue` returns
    /// with `lock` held, for the caller to queue the event behind the values being delivered; the other outcomes
    /// return with it released. The event itself is not named here, so neither `sendError` nor `sendComplete`
    /// builds an `Event` (a generic metadata lookup) unless it has to queue.
    private func closeForTerminalEvent() -> TerminalRoute {
        // Idle, accepting, nothing queued: close without the lock, as `send` enters (callgrind, FlatMapsCreating:
        // with the `drain()` the `.deliver` route no longer needs, three atomic operations fewer per subscriber).
        if core.state.compareExchange(
            expected: 0, desired: SubscriptionCore.closed | SubscriptionCore.delivering,
            ordering: .acquiringAndReleasing).exchanged {
            return .deliver
        }
        core.lock.lock()
        var current = core.state.load(ordering: .acquiring)
        while true {
            if current & SubscriptionCore.closed != 0 {
                core.lock.unlock()
                return .ignore
            }
            if current & SubscriptionCore.delivering != 0 {
                let (exchanged, now) = core.state.compareExchange(
                    expected: current, desired: current | SubscriptionCore.closed | SubscriptionCore.hasQueue,
                    ordering: .acquiringAndReleasing)
                if exchanged {
                    return .queue
                }
                current = now
                continue
            }
            let (exchanged, now) = core.state.compareExchange(
                expected: current, desired: current | SubscriptionCore.closed | SubscriptionCore.delivering,
                ordering: .acquiringAndReleasing)
            if exchanged {
                core.lock.unlock()
                return .deliver
            }
            current = now
        }
    }

    private func deliverError(_ error: Failure) {
        core.checkCallback(terminal: true)
        onError?(error)
        core.checkCallbackReturned()
        core.lock.lock()
        core.finish()
    }

    private func deliverComplete() {
        core.checkCallback(terminal: true)
        onComplete?()
        core.checkCallbackReturned()
        core.lock.lock()
        core.finish()
    }

    /// Sends `event` as ``send(_:)``, ``sendError(_:)`` or ``sendComplete()`` would: for an owner that queues events
    /// (see `DeliveryQueue`, `ScheduledHandOff`). Out of line, as the queue helpers are (naming `Event` in `send`
    /// would look its metadata up on every value).
    @inline(never)
    func send(_ event: Event) {
        switch event {
        case .value(let value): send(value)
        case .error(let error): sendError(error)
        case .complete: sendComplete()
        }
    }

    func deliver(_ event: Event) {
        switch event {
        case .value(let value):
            core.checkCallback(terminal: false)
            onValue?(value)
            core.checkCallbackReturned()
        case .error(let error):
            deliverError(error)
        case .complete:
            deliverComplete()
        }
    }

    /// Leaves `delivering` after a callback: one compare-exchange unless something was queued or the state closed.
    @inline(__always)
    func leave() {
        let left = core.state.compareExchange(
            expected: SubscriptionCore.delivering, desired: 0, ordering: .releasing).exchanged
        if !left {
            drain()
        }
    }

    /// Delivers what other threads queued while this one was delivering, then goes idle.
    func drain() {
        while true {
            core.lock.lock()
            if core.finished || head == queued {
                if queued != 0 {
                    clearQueue()
                }
                // `hasQueue` is only set under `lock`, so nothing can be queued between this check and the clear.
                core.state.bitwiseAnd(~(SubscriptionCore.delivering | SubscriptionCore.hasQueue), ordering: .releasing)
                core.lock.unlock()
                return
            }
            deliverNextQueued()
        }
    }

    // The queue helpers below run with `lock` held and stay out of line on purpose (see `queue`).

    @inline(never)
    private func enqueue(value: Value) {
        enqueue(.value(value))
    }

    @inline(never)
    private func enqueue(error: Failure) {
        enqueue(.error(error))
    }

    @inline(never)
    private func enqueueComplete() {
        enqueue(.complete)
    }

    @inline(never)
    private func enqueue(_ event: Event) {
        #if RIPPLE_INTERNAL_CHECKS
        let state = core.state.load(ordering: .acquiring)
        precondition(state & SubscriptionCore.delivering != 0 && state & SubscriptionCore.hasQueue != 0,
                     "Ripple internal check: a SignalSubscriber queued an event outside delivering (state \(state))")
        if case .value = event {
            precondition(state & SubscriptionCore.closed == 0,
                         "Ripple internal check: a SignalSubscriber queued a value after it closed (state \(state))")
        }
        precondition(queue.count == queued && head <= queued,
                     "Ripple internal check: SignalSubscriber queue \(queue.count), queued \(queued), head \(head)")
        #endif
        queue.append(event)
        queued += 1
    }

    /// Takes the next queued event, releases `lock`, then delivers it.
    @inline(never)
    private func deliverNextQueued() {
        let event = queue[head]
        head += 1
        core.lock.unlock()
        deliver(event)
    }

    /// Drops what is left of the queue (everything, once finished), keeping its storage while still accepting.
    @inline(never)
    private func clearQueue() {
        queue.removeAll(keepingCapacity: !core.finished)
        queued = 0
        head = 0
    }

    /// Delivers `value` once this subscriber has entered its delivering state: at a checkpoint through the depth
    /// trampoline, else straight to the callback. One body for `send`'s uncontended and contended entries; always
    /// inlined, so neither path pays a call.
    @inline(__always)
    private func deliverEntered(_ value: Value) {
        if flags & SubscriberFlags.checkpoint != 0 {
            deliverAtCheckpoint(value)
            return
        }
        core.checkCallback(terminal: false)
        onValue?(value)
        core.checkCallbackReturned()
        leave()
    }

    /// Delivers `value` as `send` does (this thread is `delivering`), from a checkpoint subscriber: a counted step,
    /// queued behind `delivering` for the root once `maxNested` are on the stack (see `SubscriptionTrampoline`).
    @inline(never)
    private func deliverAtCheckpoint(_ value: Value) {
        // The delivering thread's trampoline, not `nesting`: that is the subscribing thread's.
        currentTrampoline().with { trampoline in
            switch trampoline.route() {
            case .run:
                trampoline.nested &+= 1
                core.checkCallback(terminal: false)
                onValue?(value)
                core.checkCallbackReturned()
                leave()
                trampoline.nested &-= 1
            case .root:
                trampoline.runAsRoot {
                    core.checkCallback(terminal: false)
                    onValue?(value)
                    core.checkCallbackReturned()
                    leave()
                }
            case .queue:
                queueDrain(trampoline, .value(value))
            }
        }
    }

    /// Delivers a terminal event accepted by `closeForTerminalEvent` (`.deliver`) from a checkpoint subscriber, as
    /// `deliverAtCheckpoint(_:)` does a value.
    @inline(never)
    private func deliverAtCheckpoint(_ event: Event) {
        // The delivering thread's trampoline, not `nesting`: that is the subscribing thread's.
        currentTrampoline().with { trampoline in
            switch trampoline.route() {
            case .run:
                trampoline.nested &+= 1
                deliver(event)
                drain()
                trampoline.nested &-= 1
            case .root:
                trampoline.runAsRoot {
                    deliver(event)
                    drain()
                }
            case .queue:
                queueDrain(trampoline, event)
            }
        }
    }

    // Out of line, as the queue helpers are: naming `Event` in `sendError`/`sendComplete` would look its metadata up
    // on every call (callgrind, FlatMapsCreating: +5,000 instructions per chain).
    @inline(never)
    private func errorAtCheckpoint(_ error: Failure) {
        deliverAtCheckpoint(.error(error))
    }

    @inline(never)
    private func completeAtCheckpoint() {
        deliverAtCheckpoint(.complete)
    }

    /// Queues `event` (this thread is `delivering`, so later events queue behind it) and has the root drain it.
    private func queueDrain(_ trampoline: SubscriptionTrampoline, _ event: Event) {
        core.lock.lock()
        core.state.bitwiseOr(SubscriptionCore.hasQueue, ordering: .acquiringAndReleasing)
        enqueue(event)
        core.lock.unlock()
        trampoline.enqueue { self.drain() }
    }

    /// Hands over the cleanup the signal's action returned; runs it at once if the subscription already finished.
    /// A root then runs what its subscription queued (see `SubscriptionTrampoline`).
    @usableFromInline
    func attach(_ disposer: Disposer) {
        nesting.with { trampoline in
            #if RIPPLE_INTERNAL_CHECKS
            precondition(level == UInt32.max || trampoline.level == Int(level),
                         "Ripple internal check: a subscriber of level \(level) attached at level \(trampoline.level)")
            #endif
            trampoline.level &-= 1
        }
        core.attach(disposer)
        if flags & SubscriberFlags.root != 0 {
            endSubscriptionRoot()
        }
    }

    private func endSubscriptionRoot() {
        nesting.with { trampoline in
            // Nothing queued (most roots): no call into the loop.
            if trampoline.hasQueued {
                trampoline.runQueued()
            }
            trampoline.running = false
        }
    }

    /// Queues `subscribe` (this subscriber's subscription, made with `SubscriberFlags.deferred`) for the root, at
    /// this subscriber's level, and leaves that level here.
    @usableFromInline
    func deferSubscription(_ subscribe: @escaping () -> Void) {
        nesting.with { trampoline in
            trampoline.enqueue(subscribe)
            trampoline.level &-= 1
        }
    }
}

/// Copies of a freed checkpoint's callbacks (see `SignalSubscriber.releaseDeep`, `FusedState`). Freed as the last
/// field of that object, it frees what the callbacks held as one counted step of the trampoline: now, as the root,
/// or queued (the queued step keeps them alive until it runs).
@usableFromInline
final class CallbackRelease: @unchecked Sendable {
    private var held: (Any?, Any?, Any?)?

    init(_ value: Any?, _ error: Any?, _ complete: Any?) {
        held = (value, error, complete)
    }

    deinit {
        let box = HeldCallbacks(held)
        held = nil
        currentTrampoline().with { $0.step { box.release() } }
    }
}

/// What a `CallbackRelease` held, while a trampoline step frees it.
private final class HeldCallbacks: @unchecked Sendable {
    private var held: (Any?, Any?, Any?)?

    init(_ held: (Any?, Any?, Any?)?) {
        self.held = held
    }

    func release() {
        held = nil
    }
}

/// Where `closeForTerminalEvent` sends a terminal event. Not nested in the generic `SignalSubscriber`: a nested enum would
/// be generic too, and naming it would look its metadata up at run time.
private enum TerminalRoute {
    /// The subscription already ended or was disposed.
    case ignore
    /// Another thread (or this one, re-entrantly) is delivering: queue it; `lock` is held.
    case queue
    /// Deliver it now. The state was neither delivering nor closed, so nothing was queued (`hasQueue` is only set
    /// while delivering, and the queue is emptied before `delivering` clears), and once closed nothing queues: the
    /// caller need not drain afterwards (a checkpoint's delivery does, for its trampoline's sake).
    case deliver
}
