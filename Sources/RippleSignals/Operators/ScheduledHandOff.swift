import RippleCore

// Invariants:
// - An operator that hands each event to a piece of scheduled work (`deliver(on:)`, `delay`) queues the event here
//   before it schedules that work, and the work delivers the oldest queued event, not the one it was scheduled for.
//   `Scheduling` promises no order between two pieces of work (a queue scheduler over a concurrent queue runs them on
//   several threads), so each piece delivering its own event let a completion overtake the values before it, and the
//   completed subscriber dropped them. Now the n-th piece of work to run delivers the n-th event. For `delay`, whose
//   work all waits the same interval, the n-th event's interval has passed by then: its work was scheduled first.
// - One thread delivers at a time, in queue order: work that finds another thread (or its own, from a callback)
//   delivering counts its event as due and returns; the deliverer delivers every due event before it goes idle.
// - Once cancelled (the subscription was disposed), what is queued is dropped and nothing more is delivered.
// - Callbacks never run under `lock`.

/// The events of one `deliver(on:)` or `delay` subscription, waiting for their scheduled work (see the invariants
/// above). `@unchecked Sendable`: the mutable state is guarded by `lock`.
final class ScheduledHandOff<Value: Sendable, Failure: Error>: @unchecked Sendable {
    enum Event {
        case value(Value)
        case error(Failure)
        case complete
    }

    private let lock = Lock()
    // Guarded by `lock`. Events before `head` were delivered; the rest wait.
    private var queue: [Event] = []
    private var head = 0
    /// Pieces of work that ran and whose event is not delivered yet.
    private var due = 0
    private var delivering = false
    private var cancelled = false

    /// Queues `event`; the caller then schedules the work that calls ``deliverDue(to:)``. False once cancelled
    /// (nothing to schedule).
    func enqueue(_ event: Event) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            queue.append(event)
            return true
        }
    }

    /// A piece of scheduled work ran: one more event is due. Delivers the due events in order, unless another
    /// thread already is (it delivers this one too).
    func deliverDue(to downstream: SignalSubscriber<Value, Failure>) {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        due += 1
        if delivering { return lock.unlock() }
        delivering = true
        while due > 0, head < queue.count, !cancelled {
            let event = queue[head]
            head += 1
            due -= 1
            dropDelivered()
            lock.unlock()
            switch event {
            case .value(let value): downstream.send(value)
            case .error(let error): downstream.sendError(error)
            case .complete: downstream.sendComplete()
            }
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }

    /// Drops what is queued; nothing more is delivered.
    func cancel() {
        let dropped = lock.withLock { () -> [Event] in
            cancelled = true
            due = 0
            head = 0
            defer { queue = [] }
            return queue
        }
        // Released after the lock: the last release of a queued value may run user code.
        withExtendedLifetime(dropped) {}
    }

    /// Called with `lock` held: frees the delivered prefix once it is all of the queue, or most of a long one, so a
    /// steady stream that never empties the queue does not grow it forever.
    private func dropDelivered() {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }
}
