import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("Leaks")
struct LeakTests {
    /// Every operator's chain: subscribe, drive a little, dispose; every subscriber and source must be freed.
    @Test("every operator chain is released after disposal")
    func chainsReleased() {
        let scheduler = TestScheduler()
        typealias Chain = (Signal<Int, TestError>, Signal<Int, TestError>) -> Signal<Int, TestError>
        let chains: [(String, Chain)] = [
            ("map", { a, _ in a.map { $0 + 1 } }),
            ("filter", { a, _ in a.filter { $0 > 0 } }),
            ("distinctUntilChanged", { a, _ in a.distinctUntilChanged() }),
            ("take", { a, _ in a.take(5) }),
            ("skip", { a, _ in a.skip(1) }),
            ("retry", { a, _ in a.retry(2) }),
            ("finally", { a, _ in a.finally {} }),
            ("flatMap", { a, b in a.flatMap { _ in b } }),
            ("then", { a, b in a.then(b) }),
            ("merge", { a, b in a.merge(b) }),
            ("zip", { a, b in a.zip(b).map { $0.0 + $0.1 } }),
            ("combineLatest", { a, b in a.combineLatest(b).map { $0.0 + $0.1 } }),
            ("deliverOn", { a, _ in a.deliver(on: scheduler) }),
            ("subscribeOn", { a, _ in a.subscribe(on: scheduler) }),
            ("delay", { a, _ in a.delay(.seconds(1), on: scheduler) }),
            ("debounce", { a, _ in a.debounce(.seconds(1), on: scheduler) }),
            ("throttle", { a, _ in a.throttle(.seconds(1), on: scheduler) }),
        ]
        for (name, chain) in chains {
            expectReleased { tracker in
                let a = ManualSource<Int, TestError>()
                let b = ManualSource<Int, TestError>()
                tracker.track(a, "\(name) source a")
                tracker.track(b, "\(name) source b")
                let disposer = chain(a.signal, b.signal).subscribe(value: { _ in }, error: { _ in })
                scheduler.advance()
                a.send(1)
                b.send(2)
                a.send(3)
                scheduler.advance(by: .seconds(1))
                disposer.dispose()
                scheduler.run()
                a.forgetSubscribers()
                b.forgetSubscribers()
            }
        }
    }

    /// The rule for every operator (issue 19): once every producer has let go of its subscriber without an end
    /// event, nothing keeps the chain alive, so the subscriber at its end and everything its callbacks hold is freed.
    @Test("chains are freed when every producer lets go of its subscriber unended", arguments: producerDropChains)
    func producersLetGo(_ name: String) {
        let chain = Self.producerDropChain(name)
        let scheduler = TestScheduler()
        expectReleased { tracker in
            let a = ManualSource<Int, TestError>()
            let b = ManualSource<Int, TestError>()
            let received = tracker.track(Recorder<Int>(), "\(name): the subscriber's callbacks")
            let disposer = chain(a.signal, b.signal, scheduler).subscribe(value: { received.record($0) }, error: { _ in })
            scheduler.advance()
            a.send(1)
            b.send(2)
            a.send(3)
            scheduler.run()
            a.forgetSubscribers()
            b.forgetSubscribers()
            scheduler.run()
            #expect(disposer.isDisposed, "\(name): the subscription did not end")
        }
    }

    typealias DropChain = @Sendable (Signal<Int, TestError>, Signal<Int, TestError>, TestScheduler)
        -> Signal<Int, TestError>

    /// Every operator, fed by two producers that keep their subscribers until told to forget them.
    static let producerDropChainsByName: [String: DropChain] = [
        "map": { a, _, _ in a.map { $0 + 1 } },
        "filter": { a, _, _ in a.filter { $0 > 0 } },
        "distinctUntilChanged": { a, _, _ in a.distinctUntilChanged() },
        "take": { a, _, _ in a.take(5) },
        "skip": { a, _, _ in a.skip(1) },
        "retry": { a, _, _ in a.retry(2) },
        "finally": { a, _, _ in a.finally {} },
        "then": { a, b, _ in a.then(b) },
        "merge": { a, b, _ in a.merge(b) },
        "zip": { a, b, _ in a.zip(b).map { $0.0 + $0.1 } },
        "zip3": { a, b, _ in a.zip(b, a).map { (x: (Int, Int, Int)) in x.0 + x.1 + x.2 } },
        "combineLatest": { a, b, _ in a.combineLatest(b).map { $0.0 + $0.1 } },
        "combineLatest3": { a, b, _ in a.combineLatest(b, a).map { (x: (Int, Int, Int)) in x.0 + x.1 + x.2 } },
        "combineLatest4": { a, b, _ in
            a.combineLatest(b, a, b).map { (x: (Int, Int, Int, Int)) in x.0 + x.1 + x.2 + x.3 }
        },
        "flatMap": { a, b, _ in a.flatMap { _ in b } },
        "flatMap over just": { a, _, _ in a.flatMap { .just($0) } },
        "flatMapLatest": { a, b, _ in a.flatMapLatest { _ in b } },
        "flatMapLatest over just": { a, _, _ in a.flatMapLatest { .just($0) } },
        // Fused levels stacked: each state is owned only by the callbacks of the level above.
        "flatMap then flatMapLatest": { a, b, _ in a.flatMap { _ in b }.flatMapLatest { .just($0 + 1) } },
        "flatMapLatest then flatMap then map": { a, b, _ in
            a.flatMapLatest { _ in b }.flatMap { .just($0) }.map { $0 * 2 }
        },
        "catch": { a, b, _ in a.catch { _ in b } },
        "replaceError": { a, _, _ in a.replaceError(with: 0).setFailureType(to: TestError.self) },
        "mapError": { a, _, _ in a.mapError { TestError($0.code + 1) } },
        "compactMap": { a, _, _ in a.compactMap { $0 } },
        "scan": { a, _, _ in a.scan(0, +) },
        "prepend": { a, _, _ in a.prepend(0) },
        "timeout": { a, _, s in a.timeout(.seconds(1), on: s) },
        "share": { a, _, _ in a.share() },
        "share(replay:)": { a, _, _ in a.share(replay: 2) },
        "Signal.zip([…])": { a, b, _ in Signal.zip([a, b]).map { $0[0] } },
        "Signal.combineLatest([…])": { a, b, _ in Signal.combineLatest([a, b]).map { $0[0] } },
        "Signal.merge([…])": { a, b, _ in Signal.merge([a, b]) },
        "deliverOn": { a, _, s in a.deliver(on: s) },
        "subscribeOn": { a, _, s in a.subscribe(on: s) },
        "delay": { a, _, s in a.delay(.seconds(1), on: s) },
        "debounce": { a, _, s in a.debounce(.seconds(1), on: s) },
        "throttle": { a, _, s in a.throttle(.seconds(1), on: s) },
    ]

    static let producerDropChains = producerDropChainsByName.keys.sorted()

    static func producerDropChain(_ name: String) -> DropChain {
        producerDropChainsByName[name]!
    }

    /// The other side of the rule: while a producer holds its subscriber, the chain stays alive, even when every
    /// input passes through an operator that cannot fail (whose error callback is never called).
    @Test("chains over setFailureType / replaceError inputs stay alive while their producers do")
    func inputsThatCannotFailKeepTheChain() {
        let a = ManualSource<Int, Never>()
        let b = ManualSource<Int, TestError>()
        let recorder = Recorder<Int>()
        let typed = a.signal.setFailureType(to: TestError.self)
        let replaced = b.signal.replaceError(with: 0).setFailureType(to: TestError.self)
        let chains: [Signal<Int, TestError>] = [
            typed.combineLatest(replaced).map { $0.0 + $0.1 },
            typed.zip(replaced).map { $0.0 + $0.1 },
            Signal.combineLatest([typed, replaced]).map { $0[0] + $0[1] },
            typed.flatMapLatest { _ in replaced },
        ]
        let disposers = chains.map { $0.subscribe(value: { recorder.record($0) }, error: { _ in }) }
        a.send(1)
        b.send(2)
        #expect(recorder.values == [3, 3, 3, 2])
        for disposer in disposers { disposer.dispose() }
    }

    @Test("completed chains let go of their subscribers without disposal")
    func completedChainsReleased() {
        expectReleased { tracker in
            let a = ManualSource<Int, TestError>()
            tracker.track(a, "source")
            let kept = CancelBag()
            a.signal.map { $0 }.take(1).subscribe(value: { _ in }, error: { _ in }).store(in: kept)
            a.send(1)
            a.forgetSubscribers()
        }
    }

    @Test("live subscriber count returns to its baseline after 10,000 chains (in a clean process)")
    func liveCountBaseline() async {
        await #expect(processExitsWith: .success) {
            let scheduler = TestScheduler()
            let baseline = RippleDiagnostics.liveObjects["Signal.SignalSubscriber"] ?? 0
            for index in 0..<10_000 {
                let a = Signal<Int, Never>.just(index).delay(.seconds(1), on: scheduler)
                let b = Signal<Int, Never> { subscriber in
                    subscriber.send(1)
                    return .empty
                }
                let chain = a.zip(b).map { $0.0 }.distinctUntilChanged().take(2).merge(.just(1))
                    .flatMap { Signal<Int, Never>.just($0) }.finally {}
                let disposer = chain.subscribe()
                scheduler.advance(by: .seconds(1))
                disposer.dispose()
            }
            scheduler.run()
            let after = RippleDiagnostics.liveObjects["Signal.SignalSubscriber"] ?? 0
            precondition(after == baseline, "live subscribers: \(after), baseline \(baseline)")
        }
    }
}
