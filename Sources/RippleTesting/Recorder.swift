import RippleCore

/// Records what a source sends, from any thread, in arrival order: values alone (``values``) or timed events with
/// completions and failures (``events``), for a test to check afterwards.
///
/// Give it the ``TestScheduler`` that drives the test and each event carries the virtual time it arrived at; without
/// one every time is `.zero`. Nodes feed it through `withBlock(recorder.record)`, signals through
/// `signal.subscribe(recorder)`; `TestScheduler.start(created:subscribed:disposed:_:)` does both for you.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = Recorder<Int>(scheduler: scheduler)
/// let node = MutableNode(1)
/// let bag = CancelBag()
/// node.listened(by: bag).withBlock(recorder.record)
/// scheduler.advance(by: .seconds(5))
/// node.value = 2
/// #expect(recorder.events == [.value(.zero, 1), .value(.seconds(5), 2)])
/// ```
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Guarded by the lock inside `Locked`.
    private let recorded = Locked<[Recorded<Value>]>([])
    private let scheduler: TestScheduler?
    /// Handles kept for as long as this recorder lives (see ``keep(_:)``).
    private let kept = Locked<[any CancelToken]>([])

    /// - Parameter scheduler: whose clock stamps each event; `nil` stamps `.zero`.
    public init(scheduler: TestScheduler? = nil) {
        self.scheduler = scheduler
    }

    /// Keeps `handle` — the handle of the subscription feeding this recorder — for as long as the recorder lives,
    /// so a helper that subscribes a recorder need not hand the handle back (a handle released ends its
    /// subscription). Disposing the handle still ends the subscription earlier.
    public func keep(_ handle: any CancelToken) {
        kept.withLock { $0.append(handle) }
    }

    /// Appends `value`. Safe to call from several threads at once.
    public func record(_ value: Value) {
        append(.value(value))
    }

    /// Same as ``record(_:)``, so a recorder can be passed where a closure is expected: `withBlock(recorder.callAsFunction)`.
    public func callAsFunction(_ value: Value) {
        record(value)
    }

    /// Appends a completion (a signal's `sendComplete()`).
    public func recordCompletion() {
        append(.completed)
    }

    /// Appends a failure (a signal's `sendError(_:)`).
    public func recordFailure(_ error: any Error) {
        append(.failed(error))
    }

    private func append(_ event: Recorded<Value>.Event) {
        let time = scheduler?.now ?? .zero
        recorded.withLock { $0.append(Recorded(time: time, event: event)) }
    }

    /// Every event so far with its virtual time, in order.
    public var events: [Recorded<Value>] {
        recorded.value
    }

    /// The values recorded so far, in order (completions and failures left out).
    public var values: [Value] {
        recorded.withLock { $0.compactMap(\.value) }
    }

    /// How many values were recorded.
    public var count: Int {
        recorded.withLock { $0.count { $0.value != nil } }
    }

    /// The latest value.
    public var last: Value? {
        recorded.withLock { $0.last { $0.value != nil }?.value }
    }

    /// Forgets everything recorded so far.
    public func reset() {
        recorded.withLock { $0.removeAll() }
    }
}
