import RippleCore

/// The counting gate behind `skip` and `take`: it counts the first `count` values (the initial push included) and
/// lets either those through (`take`) or everything after them (`skip`); re-pointing `from` starts counting again.
///
/// `@unchecked Sendable`: `counted` is only touched under `edgeLock`.
final class CountGateTransform<Value: Sendable>: Transform<Value, Value>, @unchecked Sendable {
    let count: Int
    /// Whether the first `count` values pass (`take`) or are the ones dropped (`skip`).
    let passesFirst: Bool
    private var counted = 0

    init(_ count: Int, passesFirst: Bool) {
        self.count = count
        self.passesFirst = passesFirst
    }

    override func next(_ value: Value, senders: SenderList, context: (any Sendable)?) {
        let withinFirst = edgeLock.withLock { () -> Bool in
            if counted >= count { return false }
            counted += 1
            return true
        }
        if withinFirst == passesFirst { emit(value, senders: senders, context: context) }
    }

    override func fromDidChange() {
        edgeLock.withLock { counted = 0 }
    }
}
