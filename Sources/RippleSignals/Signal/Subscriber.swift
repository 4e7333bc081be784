import RippleCore

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
public final class Subscriber<Value: Sendable, Failure: Error>: SubscriptionHandle, @unchecked Sendable {
    enum Event {
        case value(Value)
        case error(Failure)
        case complete
    }

    // Everything below `lock` is guarded by it; the callbacks are immutable. The lock already excludes concurrent
    // access, so the guarded properties skip the runtime's dynamic exclusivity checks.
    let lock = Lock()
    /// False once a terminal event was accepted or the subscription was disposed.
    @exclusivity(unchecked) var accepting = true
    /// True while some thread is running a callback; others queue.
    @exclusivity(unchecked) var delivering = false
    /// True once the cleanup is due (terminal event delivered, or disposed).
    @exclusivity(unchecked) var finished = false
    // `queue` is only touched by the `@inline(never)` helpers below: any mention of `Event` or `[Event]` in `send` or
    // `drain` makes them fetch that generic metadata (a locked hash-map lookup) on every value, even when nothing is
    // queued. `queued` mirrors `queue.count` so the idle path can check for work without naming the array.
    @exclusivity(unchecked) var queue: [Event] = []
    @exclusivity(unchecked) var queued = 0
    @exclusivity(unchecked) var head = 0
    @exclusivity(unchecked) private var cleanup: Disposer?

    let onValue: (@Sendable (Value) -> Void)?
    let onError: (@Sendable (Failure) -> Void)?
    let onComplete: (@Sendable () -> Void)?
    /// True when the only producer is another subscriber's callbacks (``Signal`` `deliversSerially`): its events
    /// arrive one at a time and never re-entrantly, so `send` delivers at once without marking itself as
    /// delivering and without the drain's second lock/unlock. It still checks `accepting` under the lock, since
    /// `dispose()` may come from any thread. Terminal events take the ordinary path.
    let isFedSerially: Bool

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
        cleanup?.dispose()
        subscriberCounter.decrement()
    }

    /// Sends a value. Ignored after an error, a completion or disposal.
    public func send(_ value: Value) {
        lock.lock()
        guard accepting else {
            lock.unlock()
            return
        }
        if isFedSerially {
            lock.unlock()
            onValue?(value)
            return
        }
        guard !delivering else {
            enqueue(value: value)
            lock.unlock()
            return
        }
        delivering = true
        lock.unlock()
        onValue?(value)
        drain()
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
        lock.withLock { !accepting }
    }

    /// Ends the subscription: queued events are dropped, nothing more is delivered, the cleanup runs (once).
    public func dispose() {
        lock.lock()
        accepting = false
        finish()
    }

    // MARK: - Internals

    private func terminate(_ event: Event) {
        lock.lock()
        guard accepting else {
            lock.unlock()
            return
        }
        accepting = false
        guard !delivering else {
            enqueue(event)
            lock.unlock()
            return
        }
        delivering = true
        lock.unlock()
        deliver(event)
        drain()
    }

    func deliver(_ event: Event) {
        switch event {
        case .value(let value):
            onValue?(value)
        case .error(let error):
            onError?(error)
            lock.lock()
            finish()
        case .complete:
            onComplete?()
            lock.lock()
            finish()
        }
    }

    /// Delivers what other threads queued while this one was delivering, then goes idle.
    func drain() {
        while true {
            lock.lock()
            if finished || head == queued {
                if queued != 0 {
                    clearQueue()
                }
                delivering = false
                lock.unlock()
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
        lock.unlock()
        deliver(event)
    }

    /// Drops what is left of the queue (everything, once finished), keeping its storage while still accepting.
    @inline(never)
    private func clearQueue() {
        queue.removeAll(keepingCapacity: !finished)
        queued = 0
        head = 0
    }

    /// Called with `lock` held; releases it. Runs the cleanup once.
    private func finish() {
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        let taken = cleanup
        cleanup = nil
        lock.unlock()
        taken?.dispose()
    }

    /// Hands over the cleanup the signal's action returned; runs it at once if the subscription already finished.
    func attach(_ disposer: Disposer) {
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
