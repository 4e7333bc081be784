import RippleCore

// Invariants:
// - Every delivery (an event with the subscribers it goes to) is appended while the owner holds `lock`, in the order
//   the owner's state changed, and made in that order by whichever thread finds none running (`delivering`); that
//   thread also makes what is appended meanwhile. So an event sent from a callback (a `share()` subscriber's, an
//   `ObservableProperty` assignment from a subscriber) reaches every subscriber after the one being delivered.
// - Callbacks never run under `lock`.

/// The ordered deliveries of one `share()` connection or `ObservableProperty`, guarded by its owner's lock (see the
/// invariants above). `@unchecked Sendable`: the mutable state is guarded by `lock`, `batch` by `delivering`.
final class DeliveryQueue<Value: Sendable, Failure: Error>: @unchecked Sendable {
    typealias Delivery = (targets: [SignalSubscriber<Value, Failure>], event: SignalSubscriber<Value, Failure>.Event)

    private let lock: Lock
    /// Deliveries not started yet, in acceptance order.
    private var pending: [Delivery] = []
    /// Some thread is delivering; the others only append.
    private var delivering = false
    /// The deliveries being made: touched only by the thread that set `delivering`. Swapped with `pending`, so a
    /// steady stream allocates no queue.
    private var batch: [Delivery] = []

    /// A queue guarded by `lock`, its owner's.
    init(lock: Lock) {
        self.lock = lock
    }

    /// Queues `event` for `targets`. Call with `lock` held, then ``flush()`` once it is released.
    func append(_ event: SignalSubscriber<Value, Failure>.Event, to targets: [SignalSubscriber<Value, Failure>]) {
        pending.append((targets, event))
    }

    /// Makes the queued deliveries, in order, unless another thread (or this one, from a callback) already is. Call
    /// without `lock`.
    func flush() {
        lock.lock()
        if delivering { return lock.unlock() }
        delivering = true
        while !pending.isEmpty {
            swap(&pending, &batch)
            lock.unlock()
            for (targets, event) in batch {
                for target in targets { target.send(event) }
            }
            batch.removeAll(keepingCapacity: true)
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }
}
