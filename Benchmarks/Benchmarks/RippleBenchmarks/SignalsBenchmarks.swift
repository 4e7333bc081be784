import Benchmark
import RippleSignals

/// The benchmarks.md workloads for RippleSignals.
///
/// Signals are cold and have no subject: a "subject" here is the `SignalSubscriber` a `Signal { subscriber in … }` action
/// hands out, captured and sent into directly — the cheapest way to push values into a signal chain. A second
/// subscriber is a second subscription, so "two subscribers" means the producer sends to both captured subscribers.
/// FlatMapLatest is `map { Signal.just($0) }.switchToLatest()`, as in the peers.
func registerSignalsBenchmarks() {
    Benchmark("SubjectPumping/Signals", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let disposer = subject.signal.subscribe(value: { sum.value &+= $0 })
        let subscriber = subject.only
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriber.send(1) }
        benchmark.stopMeasurement()
        disposer.dispose()
        check(sum, equals: benchmark.scaledIterations.count, "SubjectPumping/Signals")
    }

    Benchmark("SubjectPumpingTwoSubscribers/Signals", configuration: configuration(.mega)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let first = subject.signal.subscribe(value: { sum.value &+= $0 })
        let second = subject.signal.subscribe(value: { sum.value &+= $0 })
        let subscribers = subject.subscribers
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            subscribers[0].send(1)
            subscribers[1].send(1)
        }
        benchmark.stopMeasurement()
        first.dispose()
        second.dispose()
        check(sum, equals: 2 * benchmark.scaledIterations.count, "SubjectPumpingTwoSubscribers/Signals")
    }

    Benchmark("SubjectCreating/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let subject = SignalSubject()
            let disposer = subject.signal.subscribe(value: { sum.value &+= $0 })
            subject.only.send(1)
            disposer.dispose()
        }
        check(sum, equals: benchmark.scaledIterations.count, "SubjectCreating/Signals")
    }

    Benchmark("MapFilterPumping/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let disposer = signalMapFilterChain(subject.signal).subscribe(value: { sum.value &+= $0 })
        let subscriber = subject.only
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriber.send(1) }
        benchmark.stopMeasurement()
        disposer.dispose()
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterPumping/Signals")
    }

    Benchmark("MapFilterCreating/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let disposer = signalMapFilterChain(Signal.just(1)).subscribe(value: { sum.value &+= $0 })
            disposer.dispose()
        }
        check(sum, equals: benchmark.scaledIterations.count, "MapFilterCreating/Signals")
    }

    Benchmark("FlatMapsPumping/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let disposer = signalFlatMapChain(subject.signal).subscribe(value: { sum.value &+= $0 })
        let subscriber = subject.only
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriber.send(1) }
        benchmark.stopMeasurement()
        disposer.dispose()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapsPumping/Signals")
    }

    Benchmark("FlatMapsCreating/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let disposer = signalFlatMapChain(Signal.just(1)).subscribe(value: { sum.value &+= $0 })
            disposer.dispose()
        }
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapsCreating/Signals")
    }

    Benchmark("FlatMapLatestPumping/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let disposer = signalFlatMapLatestChain(subject.signal).subscribe(value: { sum.value &+= $0 })
        let subscriber = subject.only
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriber.send(1) }
        benchmark.stopMeasurement()
        disposer.dispose()
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestPumping/Signals")
    }

    Benchmark("FlatMapLatestCreating/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let disposer = signalFlatMapLatestChain(Signal.just(1)).subscribe(value: { sum.value &+= $0 })
            disposer.dispose()
        }
        check(sum, equals: benchmark.scaledIterations.count, "FlatMapLatestCreating/Signals")
    }

    Benchmark("CombineLatestPumping/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        let subject = SignalSubject()
        let disposer = signalCombineLatestChain(subject.signal).subscribe(value: { sum.value &+= $0 })
        let subscriber = subject.only
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subscriber.send(1) }
        benchmark.stopMeasurement()
        disposer.dispose()
        check(sum, equals: benchmark.scaledIterations.count, "CombineLatestPumping/Signals")
    }

    Benchmark("CombineLatestCreating/Signals", configuration: configuration(.kilo)) { benchmark in
        let sum = Sum()
        for _ in benchmark.scaledIterations {
            let disposer = signalCombineLatestChain(Signal.just(1)).subscribe(value: { sum.value &+= $0 })
            disposer.dispose()
        }
        check(sum, equals: benchmark.scaledIterations.count, "CombineLatestCreating/Signals")
    }
}

/// A hand-rolled subject for a cold signal: every subscription's `SignalSubscriber` is kept so the benchmark can send
/// into it. Holding the subscriber strongly is also what keeps the subscription alive (as a producer would).
final class SignalSubject: @unchecked Sendable {
    // Written during `subscribe` and read afterwards, on the benchmark's own thread only.
    private(set) var subscribers: [SignalSubscriber<Int, Never>] = []

    var signal: Signal<Int, Never> {
        Signal { subscriber in
            self.subscribers.append(subscriber)
            return .empty
        }
    }

    /// The subscriber of the one subscription.
    var only: SignalSubscriber<Int, Never> {
        guard subscribers.count == 1, let subscriber = subscribers.first else {
            fatalError("SignalSubject: expected exactly one subscription, got \(subscribers.count)")
        }
        return subscriber
    }
}

/// Six (map identity, filter always-true) pairs: 12 operators, as in RxSwift's suite.
func signalMapFilterChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
        .map { $0 }.filter { _ in true }
}

/// Five chained `flatMap { just($0) }`.
func signalFlatMapChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
        .flatMap { Signal.just($0) }
}

/// Five chained switch-to-latest levels, each mapping to a `just` (the peers' shape).
func signalFlatMapLatestChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    source
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
        .map { Signal<Int, Never>.just($0) }.switchToLatest()
}

/// Seven nested 4-input combineLatest levels: three constant inputs and the previous level, whose value each level
/// passes on (RxSwift's result selector `{ x, _, _, _ in x }` is a `map` here). The constants subscribe first, so
/// the one value of a `just` source makes each level emit exactly once.
func signalCombineLatestChain(_ source: Signal<Int, Never>) -> Signal<Int, Never> {
    var last = source
    for _ in 0..<7 {
        // The closure's type is spelled out: the tuple comes from a parameter pack, and `$0.3` does not type-check.
        last = Signal.just(1).combineLatest(Signal.just(1), Signal.just(1), last)
            .map { (values: (Int, Int, Int, Int)) in values.3 }
    }
    return last
}
