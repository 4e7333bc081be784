import RippleCore

/// Folds every value into a running result and emits it; re-pointing `from` starts again from `start`.
///
/// `@unchecked Sendable`: `accumulated`, `index` and `generation` are only touched under `edgeLock`.
final class ScanTransform<Input: Sendable, Output: Sendable>: Transform<Input, Output>, @unchecked Sendable {
    let start: Output
    let reduce: @Sendable (Output, Input, Int) -> Output
    private var accumulated: Output
    private var index = 0
    private var generation: UInt64 = 0

    init(start: Output, reduce: @escaping @Sendable (Output, Input, Int) -> Output) {
        self.start = start
        self.reduce = reduce
        self.accumulated = start
    }

    override func next(_ value: Input, senders: SenderList, context: (any Sendable)?) {
        // `reduce` is user code, so it runs outside the lock: read, fold, then commit only if no other thread
        // committed meanwhile (otherwise fold again on the newer result). Each value is folded in exactly once.
        while true {
            let (last, position, generation) = edgeLock.withLock { (accumulated, index, self.generation) }
            let result = reduce(last, value, position)
            let committed = edgeLock.withLock { () -> Bool in
                guard self.generation == generation else { return false }
                accumulated = result
                index += 1
                self.generation &+= 1
                return true
            }
            if committed {
                emit(result, senders: senders, context: context)
                return
            }
        }
    }

    override func fromDidChange() {
        edgeLock.withLock {
            accumulated = start
            index = 0
            generation &+= 1
        }
    }
}

extension Node {
    /// A node holding the running fold of this node's values: `reduce(last, current)`, starting from `start`.
    public final func scan<Output: Sendable>(start: Output,
                                             reduce: @escaping @Sendable (Output, Value) -> Output) -> Node<Output> {
        derive("scan", ScanTransform(start: start) { last, current, _ in reduce(last, current) })
    }

    /// Like ``scan(start:reduce:)``, also passing the index of the value (0 for the first).
    public final func scan<Output: Sendable>(
        start: Output, reduceWithIndex reduce: @escaping @Sendable (Output, Value, Int) -> Output
    ) -> Node<Output> {
        derive("scan", ScanTransform(start: start, reduce: reduce))
    }
}
