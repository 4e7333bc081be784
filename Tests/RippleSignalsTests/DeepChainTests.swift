import Dispatch
import Foundation
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Issue 19 item 7: a chain of 10,000 `map`, `take`, `then` or `flatMap` operators is built, subscribes, delivers,
/// completes, disposes and is freed on a thread with iOS's 512 KiB secondary-thread stack (the trampoline in
/// `SubscriptionTrampoline`, the release barriers and drain in Recipe.swift). Each test runs in a child process, so a stack
/// overflow fails the test, not the run; the child checks the values, the completion and the live subscriber count,
/// and stops with a message if one is wrong.
@Suite("Deep chains: 10,000 operators on a 512 KiB thread")
struct DeepChainTests {
    static let depth = 10_000

    /// A source that keeps its subscriber until the subscription ends (as a request or a timer would), chained
    /// `depth` times with `operatorName`.
    final class Source: @unchecked Sendable {
        let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
        var signal: Signal<Int, Never> {
            Signal { subscriber in
                self.holder.withLock { $0 = subscriber }
                return Disposer { self.holder.withLock { $0 = nil } }
            }
        }

        func send(_ value: Int) { holder.withLock { $0 }?.send(value) }
        func sendComplete() { holder.withLock { $0 }?.sendComplete() }
        var isHeld: Bool { holder.withLock { $0 != nil } }
    }

    static func chain(_ operatorName: String, over source: Signal<Int, Never>, depth: Int) -> Signal<Int, Never> {
        var chain = source
        for _ in 0..<depth {
            switch operatorName {
            case "map": chain = chain.map { $0 + 1 }
            case "take": chain = chain.take(2)
            case "then": chain = Signal<Int, Never>.just(0).then(chain)
            case "flatMap": chain = chain.flatMap { .just($0 + 1) }
            case "flatMapLatest": chain = chain.flatMapLatest { .just($0 + 1) }
            // Inner signals made with an action: every level subscribes a subscriber of its own per value.
            case "flatMapLatest (action inners)":
                chain = chain.flatMapLatest { value in
                    Signal { subscriber in
                        subscriber.send(value + 1)
                        subscriber.sendComplete()
                        return .empty
                    }
                }
            case "merge": chain = chain.merge(.never)
            case "combineLatest": chain = chain.combineLatest(.just(0)).map { $0.0 }
            default: fatalError("unknown operator \(operatorName)")
            }
        }
        return chain
    }

    static func expected(_ operatorName: String, sent: Int, depth: Int) -> [Int] {
        ["map", "flatMap", "flatMapLatest", "flatMapLatest (action inners)"].contains(operatorName) ? [sent + depth] : [sent]
    }

    /// Subscribers and the fused operators' per-subscription states (switch levels make no subscriber).
    static var liveSubscribers: Int {
        let live = RippleDiagnostics.liveObjects
        return (live["Signal.SignalSubscriber"] ?? 0) + (live["Signal.FusedOperatorState"] ?? 0)
    }

    /// Builds the chain, runs `body` with it and drops it, all on a 512 KiB thread: freeing a recipe of 10,000
    /// operators goes through the release drain (see Recipe.swift), so it fits that stack too.
    static func onSmallStack(_ operatorName: String, depth: Int,
                             _ body: @escaping @Sendable (Source, Signal<Int, Never>) -> Void) {
        DepthTests.onSmallStack {
            let source = Source()
            body(source, chain(operatorName, over: source.signal, depth: depth))
            precondition(RecipeRelease.isIdle, "\(operatorName): the release drain was left with work")
        }
    }

    /// Subscribes, sends 1 then 2, completes (`take(2)` completes by itself on the second value), disposes;
    /// checks everything arrived in order, exactly one completion, and that the chain was freed.
    static func runToCompletion(_ operatorName: String, source: Source, chain: Signal<Int, Never>, depth: Int) {
        let baseline = liveSubscribers
        let received = Locked<[Int]>([])
        let completed = Locked(0)
        let disposer = chain.subscribe(value: { value in received.withLock { $0.append(value) } },
                       complete: { completed.withLock { $0 += 1 } })
        precondition(source.isHeld, "\(operatorName): the source was not subscribed")
        precondition(liveSubscribers > baseline, "\(operatorName): no subscribers live")
        source.send(1)
        source.send(2)
        let values = received.withLock { $0 }
        let expectedValues = expected(operatorName, sent: 1, depth: depth) + expected(operatorName, sent: 2, depth: depth)
        precondition(values == expectedValues, "\(operatorName): received \(values.prefix(4)), expected \(expectedValues)")
        if operatorName == "take" {
            // take(2) completes the chain itself on the second value, after disposing its source.
            precondition(completed.withLock { $0 } == 1, "\(operatorName): take(2) did not complete on its 2nd value")
            precondition(!source.isHeld, "\(operatorName): take(2) did not dispose its source")
        } else {
            precondition(completed.withLock { $0 } == 0, "\(operatorName): completed early")
        }
        source.sendComplete()
        precondition(completed.withLock { $0 } == 1, "\(operatorName): completed \(completed.withLock { $0 }) times")
        precondition(!source.isHeld, "\(operatorName): the source still holds its subscriber after completing")
        disposer.dispose()
        precondition(liveSubscribers == baseline,
                     "\(operatorName): \(liveSubscribers - baseline) subscribers still live after completion")
    }

    /// Subscribes, sends 1, disposes without completing; checks that disposal reached the source and freed the chain.
    static func runToDisposal(_ operatorName: String, source: Source, chain: Signal<Int, Never>, depth: Int) {
        let baseline = liveSubscribers
        let received = Locked<[Int]>([])
        let completed = Locked(false)
        let disposer = chain.subscribe(value: { value in received.withLock { $0.append(value) } },
                       complete: { completed.withLock { $0 = true } })
        source.send(1)
        precondition(received.withLock { $0 } == expected(operatorName, sent: 1, depth: depth),
                     "\(operatorName): received \(received.withLock { $0 })")
        disposer.dispose()
        precondition(!source.isHeld, "\(operatorName): disposal did not reach the source")
        precondition(!completed.withLock { $0 }, "\(operatorName): completed on disposal")
        source.send(2)
        precondition(received.withLock { $0.count } == 1, "\(operatorName): delivered after disposal")
        precondition(liveSubscribers == baseline,
                     "\(operatorName): \(liveSubscribers - baseline) subscribers still live after disposal")
    }

    @Test("a chain of 10,000 subscribes and delivers in order; completed or disposed, it reaches its source and is freed",
          arguments: ["map", "take", "then", "flatMap", "flatMapLatest", "flatMapLatest (action inners)"],
          ["complete", "dispose"])
    func runs(_ operatorName: String, ending: String) async {
        await #expect(processExitsWith: .success) { [operatorName, ending] in
            DeepChainTests.onSmallStack(operatorName, depth: DeepChainTests.depth) { source, chain in
                if ending == "complete" {
                    DeepChainTests.runToCompletion(operatorName, source: source, chain: chain, depth: DeepChainTests.depth)
                } else {
                    DeepChainTests.runToDisposal(operatorName, source: source, chain: chain, depth: DeepChainTests.depth)
                }
            }
        }
    }

    @Test("a chain of 10,000 merge or combineLatest operators subscribes, delivers and disposes",
          arguments: ["merge", "combineLatest"])
    func multiInputChainRuns(_ operatorName: String) async {
        await #expect(processExitsWith: .success) { [operatorName] in
            DeepChainTests.onSmallStack(operatorName, depth: DeepChainTests.depth) { source, chain in
                DeepChainTests.runToDisposal(operatorName, source: source, chain: chain, depth: DeepChainTests.depth)
            }
        }
    }

    /// Every operator, chained `depth` times: the recipes the release drain must free.
    static func recipe(_ operatorName: String, depth: Int) -> Signal<Int, Never> {
        let scheduler = TestScheduler()
        // Not a `just`: `mapError`, `replaceError` and `setFailureType` keep a `just` as it is.
        var chain = Signal<Int, Never> { _ in Disposer() }
        for _ in 0..<depth {
            switch operatorName {
            case "map": chain = chain.map { $0 + 1 }
            case "filter": chain = chain.filter { _ in true }
            case "compactMap": chain = chain.compactMap { $0 }
            case "scan": chain = chain.scan(0, +)
            case "take": chain = chain.take(2)
            case "skip": chain = chain.skip(0)
            case "then (first)": chain = chain.then(.just(1))
            case "then (second)": chain = Signal<Int, Never>.just(0).then(chain)
            case "flatMap": chain = chain.flatMap { .just($0) }
            case "flatMapLatest": chain = chain.flatMapLatest { .just($0) }
            case "distinctUntilChanged": chain = chain.distinctUntilChanged()
            case "prepend": chain = chain.prepend(1)
            case "finally": chain = chain.finally {}
            case "setFailureType/catch": chain = chain.setFailureType(to: TestError.self).catch { _ in .just(0) }
            case "mapError/replaceError":
                chain = chain.setFailureType(to: TestError.self).mapError { $0 }.replaceError(with: 0)
            case "retry": chain = chain.setFailureType(to: TestError.self).retry(1).replaceError(with: 0)
            case "delay": chain = chain.delay(.seconds(1), on: scheduler)
            case "debounce": chain = chain.debounce(.seconds(1), on: scheduler)
            case "throttle": chain = chain.throttle(.seconds(1), on: scheduler)
            case "timeout": chain = chain.timeout(.seconds(1), on: scheduler)
            case "subscribe(on:)": chain = chain.subscribe(on: scheduler)
            case "deliver(on:)": chain = chain.deliver(on: scheduler)
            case "share": chain = chain.share()
            // Multi-input operators stacked on the chain: `merge(signals)` in a loop, a zip or combineLatest per page.
            case "merge": chain = chain.merge(.just(1))
            case "merge (array)": chain = Signal.merge([.just(1), chain])
            case "zip": chain = chain.zip(.just(1)).map { $0.0 }
            case "zip (pack)": chain = chain.zip(Signal<Int, Never>.just(1), .just(2)).map { $0.0 }
            case "zip (array)": chain = Signal.zip([chain, .just(1)]).map { $0[0] }
            case "combineLatest": chain = chain.combineLatest(.just(1)).map { $0.0 }
            case "combineLatest (pack)": chain = chain.combineLatest(Signal<Int, Never>.just(1), .just(2)).map { $0.0 }
            case "combineLatest (4)":
                chain = chain.combineLatest(Signal<Int, Never>.just(1), .just(2), .just(3)).map { $0.0 }
            case "combineLatest (array)": chain = Signal.combineLatest([.just(1), chain]).map { $0[1] }
            default: fatalError("unknown operator \(operatorName)")
            }
        }
        return chain
    }

    struct TestError: Error {}

    @Test("a recipe of 10,000 of any operator is built and freed on a 512 KiB thread",
          arguments: ["map", "filter", "compactMap", "scan", "take", "skip", "then (first)", "then (second)", "flatMap",
                      "flatMapLatest", "distinctUntilChanged", "prepend", "finally", "setFailureType/catch",
                      "mapError/replaceError", "retry", "delay", "debounce", "throttle", "timeout", "subscribe(on:)",
                      "deliver(on:)", "share", "merge", "merge (array)", "zip", "zip (pack)", "zip (array)",
                      "combineLatest", "combineLatest (pack)", "combineLatest (4)", "combineLatest (array)"])
    func recipeIsFreed(_ operatorName: String) async {
        await #expect(processExitsWith: .success) { [operatorName] in
            DepthTests.onSmallStack {
                let chain = DeepChainTests.recipe(operatorName, depth: DeepChainTests.depth)
                if case .just = chain.body { preconditionFailure("\(operatorName): the recipe stayed a just") }
            }
        }
    }

    @Test("a recipe of 100,000 map, filter, take or flatMap operators is built and freed on a 512 KiB thread",
          arguments: ["map", "filter", "take", "flatMap"])
    func hundredThousand(_ operatorName: String) async {
        await #expect(processExitsWith: .success) { [operatorName] in
            DepthTests.onSmallStack {
                _ = DeepChainTests.recipe(operatorName, depth: 100_000)
                precondition(RecipeRelease.isIdle, "\(operatorName): the release drain was left with work")
            }
        }
    }
}
