import RippleCore
import Synchronization

let subscriberCounter = LiveObjectCounter("Signal.Subscriber")

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
public final class Subscriber<Value: Sendable, Failure: Error>: @unchecked Sendable {
    enum Event {
        case value(Value)
        case error(Failure)
        case complete
    }

    /// The state word, lock and cleanup, shared with the ``Disposer`` that `subscribe` returns (see
    /// ``SubscriptionCore``). The state word lets an uncontended value in and out with one compare-exchange each;
    /// the lock is only taken on contention, re-entrancy, terminal events and disposal. Everything below is guarded
    /// by `core.lock`, which already excludes concurrent access, so it skips dynamic exclusivity checks.
    let core = SubscriptionCore()
    // `queue` is only touched by the `@inline(never)` helpers below: any mention of `Event` or `[Event]` in `send` or
    // `drain` makes them fetch that generic metadata (a locked hash-map lookup) on every value, even when nothing is
    // queued. `queued` mirrors `queue.count` so the idle path can check for work without naming the array.
    @exclusivity(unchecked) var queue: [Event] = []
    @exclusivity(unchecked) var queued = 0
    @exclusivity(unchecked) var head = 0

    let onValue: (@Sendable (Value) -> Void)?
    let onError: (@Sendable (Failure) -> Void)?
    let onComplete: (@Sendable () -> Void)?
    /// True when the only producer is another subscriber's callbacks (``Signal`` `deliversSerially`): its events
    /// arrive one at a time and never re-entrantly, so `send` delivers at once after one atomic load of `closed`
    /// (`dispose()` may come from any thread), without entering `delivering`. Terminal events take the ordinary path.
    let isFedSerially: Bool

    @usableFromInline
    init(value: (@Sendable (Value) -> Void)?,
         error: (@Sendable (Failure) -> Void)?,
         complete: (@Sendable () -> Void)?,
         isFedSerially: Bool = false) {
        onValue = value
        onError = error
        onComplete = complete
        self.isFedSerially = isFedSerially
        subscriberCounter.increment()
    }

    deinit {
        // Freed without a terminal event or disposal: nobody can send any more, so release the resources now.
        core.dispose()
        subscriberCounter.decrement()
    }

    /// Sends a value. Ignored after an error, a completion or disposal.
    public func send(_ value: Value) {
        if isFedSerially {
            if core.state.load(ordering: .acquiring) & SubscriptionCore.closed == 0 {
                onValue?(value)
            }
            return
        }
        // Idle, accepting, nothing queued: deliver at once.
        let entered = core.state.compareExchange(
            expected: 0, desired: SubscriptionCore.delivering, ordering: .acquiring).exchanged
        if entered {
            onValue?(value)
            leave()
            return
        }
        sendContended(value)
    }

    /// Ends the signal with `error`. Ignored if it already ended or was disposed.
    public func sendError(_ error: Failure) {
        terminate(.error(error))
    }

    /// Ends the signal normally. Ignored if it already ended or was disposed.
    public func sendComplete() {
        terminate(.complete)
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
                onValue?(value)
                leave()
                return
            }
            current = now
        }
    }

    private func terminate(_ event: Event) {
        core.lock.lock()
        var current = core.state.load(ordering: .acquiring)
        while true {
            if current & SubscriptionCore.closed != 0 {
                core.lock.unlock()
                return
            }
            if current & SubscriptionCore.delivering != 0 {
                let (exchanged, now) = core.state.compareExchange(
                    expected: current, desired: current | SubscriptionCore.closed | SubscriptionCore.hasQueue,
                    ordering: .acquiringAndReleasing)
                if exchanged {
                    enqueue(event)
                    core.lock.unlock()
                    return
                }
                current = now
                continue
            }
            let (exchanged, now) = core.state.compareExchange(
                expected: current, desired: current | SubscriptionCore.closed | SubscriptionCore.delivering,
                ordering: .acquiringAndReleasing)
            if exchanged {
                core.lock.unlock()
                deliver(event)
                drain()
                return
            }
            current = now
        }
    }

    func deliver(_ event: Event) {
        switch event {
        case .value(let value):
            onValue?(value)
        case .error(let error):
            onError?(error)
            core.lock.lock()
            core.finish()
        case .complete:
            onComplete?()
            core.lock.lock()
            core.finish()
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
    private func enqueue(_ event: Event) {
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

    /// Hands over the cleanup the signal's action returned; runs it at once if the subscription already finished.
    func attach(_ disposer: Disposer) {
        core.attach(disposer)
    }
}
