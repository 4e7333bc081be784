import RippleCore
import RippleSignals
import RippleTesting

enum SignalsLeakWorkload {
    struct Failure: Error {}

    /// Every signal operator subscribed, driven to its end, or disposed early.
    static func run() {
        let scheduler = TestScheduler()
        let numbers = Signal<Int, Failure> { subscriber in
            for value in 1...5 { subscriber.send(value) }
            subscriber.sendComplete()
            return Disposer {}
        }
        let failing = Signal<Int, Failure>.fail(Failure())
        let chain = numbers.map { $0 * 2 }.filter { $0 > 0 }.distinctUntilChanged().skip(1).take(3)
            .finally {}
            .flatMap { Signal<Int, Failure>.just($0) }
            .merge(numbers)
            .then(numbers)
        let zipped: Signal<(Int, String), Failure> = numbers.zip(numbers.map { "\($0)" })
        let latest: Signal<(Int, Int), Failure> = numbers.combineLatest(numbers)
        let combined = zipped.map { pair in pair.0 }.merge(latest.map { pair in pair.0 + pair.1 })
        let timed = numbers.delay(.seconds(1), on: scheduler).debounce(.seconds(1), on: scheduler)
            .throttle(.seconds(1), on: scheduler).deliver(on: scheduler).subscribe(on: scheduler)
        let retried = failing.retry(3)

        let kept = CancelBag()
        chain.subscribe(value: { _ in }, error: { _ in }, complete: {}).store(in: kept)
        let kept2 = CancelBag()
        combined.subscribe(value: { _ in }, error: { _ in }, complete: {}).store(in: kept2)
        let kept3 = CancelBag()
        retried.subscribe(value: { _ in }, error: { _ in }, complete: {}).store(in: kept3)
        let pending = timed.subscribe(value: { _ in }, error: { _ in }, complete: {})
        scheduler.advance(by: .seconds(1))
        pending.dispose()
        scheduler.run()
        producersLetGo()
    }

    /// Issue 19's shape: producers that keep their subscriber only while a request runs, then drop it without an end
    /// event. Every multi-input operator (and retry) must then free its chain.
    static func producersLetGo() {
        let held = HeldSubscribers()
        let request = Signal<Int, Failure> { subscriber in
            held.keep(subscriber)
            subscriber.send(1)
            return Disposer {}
        }
        let chains: [Signal<Int, Failure>] = [
            request.merge(request),
            request.combineLatest(request).map { $0.0 + $0.1 },
            request.combineLatest(request, request, request).map { $0.0 + $0.3 },
            request.zip(request).map { $0.0 + $0.1 },
            request.flatMap { _ in request },
            request.flatMapLatest { _ in request },
            request.catch { _ in request },
            request.share(replay: 1),
            Signal.zip([request, request]).map { $0[0] },
            Signal.combineLatest([request, request]).map { $0[0] },
            Signal.merge([request, request]),
            request.retry(1),
        ]
        for chain in chains {
            let kept4 = CancelBag()
            chain.subscribe(value: { _ in }, error: { _ in }, complete: {}).store(in: kept4)
        }
        held.dropAll()
    }
}

/// The subscribers a workload's producers hold until they let go. Single-threaded use.
final class HeldSubscribers: @unchecked Sendable {
    private var subscribers: [SignalSubscriber<Int, SignalsLeakWorkload.Failure>] = []

    func keep(_ subscriber: SignalSubscriber<Int, SignalsLeakWorkload.Failure>) {
        subscribers.append(subscriber)
    }

    func dropAll() {
        subscribers.removeAll()
    }
}
