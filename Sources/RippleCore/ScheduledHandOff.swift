// Invariants:
// - An operator that hands each item (a value, an event) to a piece of scheduled work queues the item here before it
//   schedules that work, and the work delivers the oldest queued item, not the one it was scheduled for. `Scheduling`
//   promises no order between two pieces of work (a queue scheduler over a concurrent queue runs them on several
//   threads), so each piece delivering its own item let a later one overtake an earlier one: a signal's completion
//   overtook its values, which the completed subscriber dropped; a node ended on an older value than its source's.
//   Now the n-th piece of work to run delivers the n-th item. For a delay, whose work all waits the same interval,
//   the n-th item's interval has passed by then: its work was scheduled first.
// - One thread delivers at a time, in queue order: work that finds another thread (or its own, from a callback)
//   delivering counts its item as due and returns; the deliverer delivers every due item before it goes idle.
// - Once cancelled, what is queued is dropped and nothing more is delivered.
// - `deliver` never runs under `lock`.

/// The items of one scheduled hand-off (`deliver(on:)`, `delay`, a listener called on a scheduler), waiting for their
/// scheduled work (see the invariants above). `@unchecked Sendable`: the mutable state is guarded by `lock`.
package final class ScheduledHandOff<Item: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`. Items before `head` were delivered; the rest wait.
    private var queue: [Item] = []
    private var head = 0
    /// Pieces of work that ran and whose item is not delivered yet.
    private var due = 0
    private var delivering = false
    private var cancelled = false

    package init() {}

    /// Queues `item`; the caller then schedules the work that calls ``deliverDue(_:)``. False once cancelled
    /// (nothing to schedule).
    package func enqueue(_ item: Item) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            queue.append(item)
            return true
        }
    }

    /// A piece of scheduled work ran: one more item is due. Delivers the due items in order through `deliver`,
    /// unless another thread already is (it delivers this one too).
    package func deliverDue(_ deliver: (Item) -> Void) {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        due += 1
        if delivering { return lock.unlock() }
        delivering = true
        while due > 0, head < queue.count, !cancelled {
            let item = queue[head]
            head += 1
            due -= 1
            dropDelivered()
            lock.unlock()
            deliver(item)
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }

    /// Drops what is queued; nothing more is delivered.
    package func cancel() {
        let dropped = lock.withLock { () -> [Item] in
            cancelled = true
            due = 0
            head = 0
            defer { queue = [] }
            return queue
        }
        // Released after the lock: the last release of a queued item may run user code.
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
