import RippleCore

/// Records values from any thread, in arrival order, for a test to check afterwards.
///
/// ```swift
/// let recorder = Recorder<Int>()
/// node.listened(by: bag).withBlock { recorder.record($0) }
/// #expect(recorder.values == [1, 2, 3])
/// ```
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Guarded by `lock` inside `Locked`.
    private let recorded = Locked<[Value]>([])

    public init() {}

    /// Appends `value`. Safe to call from several threads at once.
    public func record(_ value: Value) {
        recorded.withLock { $0.append(value) }
    }

    /// Same as ``record(_:)``, so a recorder can be passed where a closure is expected: `withBlock(recorder.callAsFunction)`.
    public func callAsFunction(_ value: Value) {
        record(value)
    }

    /// Everything recorded so far, in order.
    public var values: [Value] {
        recorded.value
    }

    public var count: Int {
        recorded.withLock { $0.count }
    }

    public var last: Value? {
        recorded.withLock { $0.last }
    }

    /// Forgets everything recorded so far.
    public func reset() {
        recorded.withLock { $0.removeAll() }
    }
}
