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

        _ = chain.subscribe(value: { _ in }, error: { _ in }, complete: {})
        _ = combined.subscribe(value: { _ in }, error: { _ in }, complete: {})
        _ = retried.subscribe(value: { _ in }, error: { _ in }, complete: {})
        let pending = timed.subscribe(value: { _ in }, error: { _ in }, complete: {})
        scheduler.advance(by: .seconds(1))
        pending.dispose()
        scheduler.run()
    }
}
