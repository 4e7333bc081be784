// RippleCombine against OpenCombine (Combine on Apple platforms): values, completion, errors, cancellation and
// demand, both ways.
#if canImport(Combine) || OpenCombine
import RippleCombine
import RippleCore
import RippleNodes
import RippleSignals
import RippleTesting
import Testing

private struct Boom: Error, Equatable {
    let code: Int
}

/// Collects what a Combine subscriber receives, in order.
private final class Log<Value: Sendable>: @unchecked Sendable {
    private let lock = Locked<[String]>([])
    func add(_ line: String) { lock.withLock { $0.append(line) } }
    var lines: [String] { lock.withLock { $0 } }
}

/// A subscriber that requests `initial` values, then `perValue` more after each value it receives.
private final class DemandingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let combineIdentifier = CombineIdentifier()
    let initial: Subscribers.Demand
    let perValue: Subscribers.Demand
    let log = Log<Int>()
    var subscription: (any Subscription)?

    init(initial: Subscribers.Demand, perValue: Subscribers.Demand = .none) {
        self.initial = initial
        self.perValue = perValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        log.add("subscribed")
        if initial > .none { subscription.request(initial) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.add("value \(input)")
        return perValue
    }

    func receive(completion: Subscribers.Completion<Never>) {
        log.add("finished")
    }
}

@Suite("RippleCombine: Signal and Node as publishers, publishers as signals")
struct CombineBridgeTests {
    @Test("signal.publisher delivers the values and the completion")
    func signalValuesAndCompletion() {
        let log = Log<Int>()
        let cancellable = Signal<Int, Never>.empty.prepend(1, 2, 3).publisher
            .sink(receiveCompletion: { _ in log.add("finished") }, receiveValue: { log.add("value \($0)") })
        #expect(log.lines == ["value 1", "value 2", "value 3", "finished"])
        cancellable.cancel()
    }

    @Test("signal.publisher delivers the error as a failure, typed")
    func signalError() {
        let log = Log<Int>()
        let cancellable = Signal<Int, Boom>.fail(Boom(code: 7)).prepend(1).publisher
            .sink(receiveCompletion: { completion in
                if case .failure(let boom) = completion { log.add("failure \(boom.code)") }
            }, receiveValue: { log.add("value \($0)") })
        #expect(log.lines == ["value 1", "failure 7"])
        cancellable.cancel()
    }

    @Test("cancelling the Combine subscription disposes the signal subscription: cleanup runs, nothing more arrives")
    func signalCancellation() {
        let log = Log<Int>()
        let sender = Locked<SignalSubscriber<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { subscriber in
            sender.withLock { $0 = subscriber }
            return Disposer { log.add("cleanup") }
        }
        let cancellable = signal.publisher.sink { log.add("value \($0)") }
        let subscriber = sender.withLock { $0 }!
        subscriber.send(1)
        cancellable.cancel()
        subscriber.send(2)
        #expect(log.lines == ["value 1", "cleanup"])
        #expect(subscriber.isDisposed)
    }

    @Test("releasing the AnyCancellable cancels too")
    func signalReleaseCancels() {
        let log = Log<Int>()
        do {
            let cancellable = Signal<Int, Never>.never.publisher.sink { log.add("value \($0)") }
            _ = cancellable
        }
        let cleanups = Log<Int>()
        do {
            let signal = Signal<Int, Never> { _ in Disposer { cleanups.add("cleanup") } }
            _ = signal.publisher.sink { _ in }
        }
        #expect(cleanups.lines == ["cleanup"])
    }

    @Test("signal.publisher respects demand: no more values than requested; the rest wait, then the completion")
    func signalDemand() {
        let subscriber = DemandingSubscriber(initial: .max(2))
        Signal<Int, Never>.empty.prepend(1, 2, 3, 4, 5).publisher.subscribe(subscriber)
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2"])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2", "value 3"])
        subscriber.subscription?.request(.max(5))
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2", "value 3", "value 4", "value 5",
                                         "finished"])
    }

    @Test("signal.publisher: demand returned from receive(_:) counts; no demand, no subscription to the signal yet")
    func signalDemandFromReceive() {
        let subscribed = Log<Int>()
        let signal = Signal<Int, Never>.empty.prepend(1, 2, 3, 4).handleEvents(subscribed: { subscribed.add("on") })
        let lazy = DemandingSubscriber(initial: .none)
        signal.publisher.subscribe(lazy)
        #expect(subscribed.lines.isEmpty)
        #expect(lazy.log.lines == ["subscribed"])

        let oneByOne = DemandingSubscriber(initial: .max(1), perValue: .max(1))
        signal.publisher.subscribe(oneByOne)
        #expect(oneByOne.log.lines == ["subscribed", "value 1", "value 2", "value 3", "value 4", "finished"])
        #expect(subscribed.lines == ["on"])
    }

    @Test("signal.publisher: values sent later, from another thread, wait for demand")
    func signalDemandAcrossThreads() async {
        let sender = Locked<SignalSubscriber<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { subscriber in
            sender.withLock { $0 = subscriber }
            return .empty
        }
        let subscriber = DemandingSubscriber(initial: .max(3))
        signal.publisher.subscribe(subscriber)
        let source = sender.withLock { $0 }!
        await Task.detached {
            for value in 1...1000 { source.send(value) }
            source.sendComplete()
        }.value
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2", "value 3"])
        subscriber.subscription?.request(.unlimited)
        #expect(subscriber.log.lines.count == 1 + 1000 + 1)
        #expect(subscriber.log.lines.last == "finished")
    }

    @Test("publisher.signal delivers values and completion")
    func publisherValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<Int>()
        let subscription = subject.signal.subscribe(value: { log.add("value \($0)") }, complete: { log.add("done") })
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(log.lines == ["value 1", "value 2", "done"])
        #expect(subscription.isDisposed)
    }

    @Test("publisher.signal delivers the failure as the signal's error, typed")
    func publisherError() {
        let subject = PassthroughSubject<Int, Boom>()
        let log = Log<Int>()
        let subscription = subject.signal.subscribe(value: { log.add("value \($0)") },
                                                    error: { log.add("error \($0.code)") })
        subject.send(1)
        subject.send(completion: .failure(Boom(code: 3)))
        #expect(log.lines == ["value 1", "error 3"])
        _ = subscription
    }

    @Test("disposing the signal subscription, or releasing its handle, cancels the Combine subscription")
    func publisherCancellation() {
        let log = Log<Int>()
        let subject = PassthroughSubject<Int, Never>()
        let watched = subject.handleEvents(receiveCancel: { log.add("cancelled") })
        let subscription = watched.signal.subscribe(value: { log.add("value \($0)") })
        subject.send(1)
        subscription.dispose()
        subject.send(2)
        #expect(log.lines == ["value 1", "cancelled"])

        let released = Log<Int>()
        do {
            let handle = subject.handleEvents(receiveCancel: { released.add("cancelled") })
                .signal.subscribe(value: { released.add("value \($0)") })
            subject.send(3)
            _ = handle
        }
        subject.send(4)
        #expect(released.lines == ["value 3", "cancelled"])
    }

    @Test("a round trip: signal → publisher → signal keeps values, completion and errors")
    func roundTrip() {
        let log = Log<Int>()
        let subscription = Signal<Int, Boom>.fail(Boom(code: 9)).prepend(4, 5).publisher.signal
            .subscribe(value: { log.add("value \($0)") }, error: { log.add("error \($0.code)") })
        #expect(log.lines == ["value 4", "value 5", "error 9"])
        _ = subscription
    }

    @Test("node.publisher: the current value, then each value; cancelling stops listening and releases the node")
    func nodePublisher() {
        let log = Log<Int>()
        expectReleased { tracker in
            let node = tracker.track(MutableNode(1), "node")
            let cancellable = node.publisher.sink { log.add("value \($0)") }
            node.value = 2
            node.value = 3
            cancellable.cancel()
            node.value = 4
        }
        #expect(log.lines == ["value 1", "value 2", "value 3"])
    }

    @Test("node.publisher respects demand")
    func nodeDemand() {
        let node = MutableNode(1)
        let subscriber = DemandingSubscriber(initial: .max(2))
        node.publisher.subscribe(subscriber)
        node.value = 2
        node.value = 3
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2"])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.log.lines == ["subscribed", "value 1", "value 2", "value 3"])
        subscriber.subscription?.cancel()
    }
}
#endif
