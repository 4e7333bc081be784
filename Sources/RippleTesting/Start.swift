import RippleCore
import RippleNodes
import RippleSignals

// RxTest's `start(created:subscribed:disposed:)`: make the chain under test at one virtual time, listen at a
// second, stop listening at a third, and return everything heard with its time. The three steps run inline between
// `advance(to:)` calls rather than as scheduled actions, so `create` need not be `@Sendable`; events due at the same
// instant as a step run before it, as they would in RxTest, whose sources are scheduled before the steps.

extension TestScheduler {
    /// The default virtual times of `start(created:subscribed:disposed:_:)`: RxTest's 100, 200 and 1000, in seconds.
    public static let defaultCreated: Duration = .seconds(100)
    public static let defaultSubscribed: Duration = .seconds(200)
    public static let defaultDisposed: Duration = .seconds(1000)

    /// Makes the signal with `create` at `created`, subscribes a recorder at `subscribed`, disposes it at
    /// `disposed`, and returns the recorder once the clock reads `disposed`.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let source = scheduler.hotSignal([.value(.seconds(150), 1), .value(.seconds(210), 2), .completed(.seconds(300))])
    /// let recorder = scheduler.start { source.signal.map { $0 * 10 } }
    /// #expect(recorder.events == [.value(.seconds(210), 20), .completed(.seconds(300))])
    /// #expect(source.subscriptions == [TestSubscription(.seconds(200), .seconds(300))])
    /// ```
    public func start<Value, Failure>(created: Duration = defaultCreated, subscribed: Duration = defaultSubscribed,
                                      disposed: Duration = defaultDisposed,
                                      _ create: () -> Signal<Value, Failure>) -> Recorder<Value> {
        let recorder = Recorder<Value>(scheduler: self)
        let signal = step(to: created, "created") { create() }
        let disposer = step(to: subscribed, "subscribed") { signal.subscribe(recorder) }
        step(to: disposed, "disposed") { disposer.dispose() }
        return recorder
    }

    /// The node form: makes the node with `create` at `created`, listens to it from `subscribed` (hearing its
    /// current value first) until `disposed`, and returns the recorder once the clock reads `disposed`.
    public func start<Value>(created: Duration = defaultCreated, subscribed: Duration = defaultSubscribed,
                             disposed: Duration = defaultDisposed,
                             _ create: () -> Node<Value>) -> Recorder<Value> {
        let recorder = Recorder<Value>(scheduler: self)
        let listener = CancelBag()
        let node = step(to: created, "created") { create() }
        step(to: subscribed, "subscribed") { node.listened(by: listener).withBlock(recorder.record) }
        step(to: disposed, "disposed") { listener.cancel() }
        withExtendedLifetime(node) {}
        return recorder
    }

    @discardableResult
    private func step<Result>(to instant: Duration, _ name: String, _ body: () -> Result) -> Result {
        if instant < now {
            programmerErrorInTesting("TestScheduler.start(created:subscribed:disposed:_:) needs created ≤ subscribed "
                                         + "≤ disposed, all ≥ now \(now); \(name) is \(instant)")
        }
        advance(to: instant)
        return body()
    }
}
