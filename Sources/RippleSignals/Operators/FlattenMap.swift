import RippleCore

extension Signal {
    /// Maps each value to a signal, subscribes to it, and forwards the values of every inner signal.
    ///
    /// The first error, from the source or any inner signal, ends the result and disposes the rest. The result
    /// completes once the source *and* every inner signal have completed (GYSignal completes on the first one).
    public func flattenMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<Output, Failure>
    ) -> Signal<Output, Failure> {
        Signal<Output, Failure> { downstream in
            let group = CompletionGroup<Output, Failure>(downstream: downstream)
            let outer = subscribe(Subscriber(
                value: { value in
                    let inner = transform(value)
                    guard let id = group.enter() else { return }
                    let disposer = inner.subscribe(Subscriber(
                        value: downstream.send,
                        error: downstream.sendError,
                        complete: { group.leave(id) }))
                    group.store(disposer, for: id)
                },
                error: downstream.sendError,
                complete: { group.leave(CompletionGroup<Output, Failure>.sourceID) }))
            group.store(outer, for: CompletionGroup<Output, Failure>.sourceID)
            return Disposer { group.disposeAll() }
        }
    }
}

/// Subscriptions that complete the downstream together: the downstream completes when the last one leaves.
/// `@unchecked Sendable`: the mutable state is guarded by `lock`.
final class CompletionGroup<Output: Sendable, Failure: Error>: @unchecked Sendable {
    static var sourceID: Int { 0 }

    private let downstream: Subscriber<Output, Failure>
    private let lock = Lock()
    private var active: Set<Int> = [0]
    private var disposers: [Int: Disposer] = [:]
    private var nextID = 1
    private var disposed = false

    init(downstream: Subscriber<Output, Failure>) {
        self.downstream = downstream
    }

    /// Registers one more member; nil once the group was disposed.
    func enter() -> Int? {
        lock.withLock {
            guard !disposed else { return nil }
            let id = nextID
            nextID += 1
            active.insert(id)
            return id
        }
    }

    func store(_ disposer: Disposer, for id: Int) {
        let keep = lock.withLock { () -> Bool in
            guard !disposed else { return false }
            if active.contains(id) { disposers[id] = disposer }
            return true
        }
        if !keep { disposer.dispose() }
    }

    func leave(_ id: Int) {
        let done = lock.withLock { () -> Bool in
            active.remove(id)
            disposers[id] = nil
            return active.isEmpty && !disposed
        }
        if done { downstream.sendComplete() }
    }

    func disposeAll() {
        let taken = lock.withLock { () -> [Disposer] in
            disposed = true
            defer { disposers = [:] }
            return Array(disposers.values)
        }
        for disposer in taken { disposer.dispose() }
    }
}
