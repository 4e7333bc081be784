import Dispatch
import Foundation
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Issue 29: signals nested as values arrive (per value, per error, per completion) run at any depth on a 512 KiB
/// thread: each delivers every value, completes once and frees everything. Each test runs in a child process, so a
/// stack overflow fails the test, not the run; the child stops with a message when a check fails.
@Suite("Any depth: signals nested per value, per error and per completion on a 512 KiB thread")
struct AnyDepthTests {
    static let depth = 10_000

    struct Failed: Error {}

    /// The example: a leaf that sends `n` and completes, flat-mapped into the next level as its value arrives.
    static func nest(_ n: Int, latest: Bool) -> Signal<Int, Never> {
        let leaf = Signal<Int, Never> { s in s.send(n); s.sendComplete(); return .empty }
        if n == 0 { return leaf }
        return latest ? leaf.flatMapLatest { _ in nest(n - 1, latest: true) } : leaf.flatMap { _ in nest(n - 1, latest: false) }
    }

    /// `nest` over `just` sources: no level makes a subscriber (a `just` source is attached inline, and a flatMap
    /// over it is fused), so only the fused states' own levels can bound the recursion of subscribing.
    static func nestJust(_ n: Int, latest: Bool) -> Signal<Int, Never> {
        if n == 0 { return .just(n) }
        let outer = Signal<Int, Never>.just(n)
        return latest ? outer.flatMapLatest { _ in nestJust(n - 1, latest: true) }
            : outer.flatMap { _ in nestJust(n - 1, latest: false) }
    }

    /// `nestJust` down to `leaf` instead of a `just`: a leaf that keeps its subscriber, so the deferred levels
    /// stay subscribed until the test ends them.
    static func nestJust(_ n: Int, latest: Bool, over leaf: Signal<Int, Never>) -> Signal<Int, Never> {
        if n == 0 { return leaf }
        let outer = Signal<Int, Never>.just(n)
        return latest ? outer.flatMapLatest { _ in nestJust(n - 1, latest: true, over: leaf) }
            : outer.flatMap { _ in nestJust(n - 1, latest: false, over: leaf) }
    }

    /// A fetch that fails until its last attempt, retried after a delay on `scheduler` by a recursive `catch`.
    static func fetchWithRetry(_ attemptsLeft: Int, on scheduler: TestScheduler) -> Signal<Int, Failed> {
        let fetch = Signal<Int, Failed> { s in
            if attemptsLeft == 0 {
                s.send(42)
                s.sendComplete()
            } else {
                s.sendError(Failed())
            }
            return .empty
        }
        return fetch.catch { _ in
            Signal<Int, Failed>.just(0).delay(.seconds(1), on: scheduler)
                .flatMap { _ in fetchWithRetry(attemptsLeft - 1, on: scheduler) }
        }
    }

    /// Pages 0..<count: each page (a signal that sends its number and completes) is subscribed from the completion
    /// of the one before. The current page's handle is kept (a page subscribed from deep inside the one before may be
    /// queued until that step returns, and a dropped handle would end it first); disposing the pager ends it.
    static func pager(_ count: Int) -> Signal<Int, Never> {
        Signal { downstream in
            let current = Locked<Disposer?>(nil)
            @Sendable func load(_ page: Int) {
                let signal = Signal<Int, Never> { s in s.send(page); s.sendComplete(); return .empty }
                let handle = signal.subscribe(value: { downstream.send($0) }, complete: {
                    if page + 1 < count { load(page + 1) } else { downstream.sendComplete() }
                })
                current.withLock { if !handle.isDisposed { $0 = handle } }
            }
            load(0)
            return Disposer { current.withLock { $0 }?.dispose() }
        }
    }

    /// `leaf(count).then(leaf(count - 1).then(… leaf(0)))`, built in a loop: only the innermost leaf's value (0)
    /// arrives, as `then` ignores its source's values.
    static func nestedThen(_ count: Int) -> Signal<Int, Never> {
        func leaf(_ n: Int) -> Signal<Int, Never> { Signal { s in s.send(n); s.sendComplete(); return .empty } }
        var signal = leaf(0)
        for n in 1...count { signal = leaf(n).then(signal) }
        return signal
    }

    /// Subscribes `signal` (after `start` builds it), runs `drive` (a scheduler), checks the values, exactly one
    /// terminal event, and (`countsLive`, in a child process where nothing else runs) that every subscriber and fused
    /// state was freed.
    static func check<Failure: Error>(_ name: String, expecting expected: [Int], countsLive: Bool = true,
                                      _ drive: () -> Void = {}, _ signal: () -> Signal<Int, Failure>) {
        let baseline = DeepChainTests.liveSubscribers
        let received = Locked<[Int]>([])
        let ended = Locked(0)
        do {
            let disposer = signal().subscribe(value: { value in received.withLock { $0.append(value) } },
                                              error: { _ in ended.withLock { $0 += 100 } },
                                              complete: { ended.withLock { $0 += 1 } })
            drive()
            disposer.dispose()
        }
        let values = received.withLock { $0 }
        precondition(values == expected, "\(name): received \(values.count) values \(values.prefix(5))…, expected \(expected.count)")
        precondition(ended.withLock { $0 } == 1, "\(name): terminal events \(ended.withLock { $0 }) (100 per error)")
        precondition(!countsLive || DeepChainTests.liveSubscribers == baseline,
                     "\(name): \(DeepChainTests.liveSubscribers - baseline) subscribers or states still live")
        precondition(RecipeRelease.isIdle, "\(name): the release drain was left with work")
    }

    @Test("the issue's nest(10,000) with flatMap and with flatMapLatest delivers its value, completes once, frees all",
          arguments: [false, true])
    func nestPerValue(_ latest: Bool) async {
        await #expect(processExitsWith: .success) { [latest] in
            DepthTests.onSmallStack {
                AnyDepthTests.check(latest ? "nest/flatMapLatest" : "nest/flatMap", expecting: [0]) {
                    AnyDepthTests.nest(AnyDepthTests.depth, latest: latest)
                }
            }
        }
    }

    @Test("nest(10,000) over just sources, with flatMap and with flatMapLatest, delivers its value, completes once, frees all",
          arguments: [false, true])
    func nestJustPerValue(_ latest: Bool) async {
        // Each level's fused state attached its `just` source, whose value subscribed the next level, from inside
        // the one before: no subscriber was made to be deferred, so 10,000 levels overflowed the stack (~1,000 did).
        await #expect(processExitsWith: .success) { [latest] in
            DepthTests.onSmallStack {
                AnyDepthTests.check(latest ? "nestJust/flatMapLatest" : "nestJust/flatMap", expecting: [0]) {
                    AnyDepthTests.nestJust(AnyDepthTests.depth, latest: latest)
                }
            }
        }
    }

    @Test("nest(10,000) over just sources down to a held source: completed, disposed or released, it lets go and frees all",
          arguments: [false, true], ["complete", "dispose", "release"])
    func nestJustEnded(_ latest: Bool, _ ending: String) async {
        // The levels past the first 32 attach their sources from steps queued for the root, which own them until
        // they run: each way of ending must still reach the leaf and free every level.
        await #expect(processExitsWith: .success) { [latest, ending] in
            DepthTests.onSmallStack {
                let leaf = DeepChainTests.Source()
                let baseline = DeepChainTests.liveSubscribers
                let received = Locked<[Int]>([])
                let completed = Locked(0)
                var handle: Disposer? = AnyDepthTests.nestJust(AnyDepthTests.depth, latest: latest, over: leaf.signal)
                    .subscribe(value: { value in received.withLock { $0.append(value) } },
                               complete: { completed.withLock { $0 += 1 } })
                precondition(leaf.isHeld, "\(ending): the leaf was not subscribed")
                leaf.send(5)
                switch ending {
                case "complete": leaf.sendComplete()
                case "dispose": handle?.dispose()
                default: handle = nil
                }
                precondition(!leaf.isHeld, "\(ending): the leaf still holds its subscriber")
                leaf.send(6)
                precondition(received.withLock { $0 } == [5], "\(ending): received \(received.withLock { $0 })")
                precondition(completed.withLock { $0 } == (ending == "complete" ? 1 : 0), "\(ending): completions")
                handle = nil
                precondition(DeepChainTests.liveSubscribers == baseline,
                             "\(ending): \(DeepChainTests.liveSubscribers - baseline) subscribers or states still live")
            }
        }
    }

    @Test("a recursive retry-with-delay 10,000 attempts deep on a TestScheduler delivers, completes once, frees all")
    func retryWithDelay() async {
        await #expect(processExitsWith: .success) {
            DepthTests.onSmallStack {
                let scheduler = TestScheduler()
                AnyDepthTests.check("retry with delay", expecting: [42], { scheduler.run() }) {
                    AnyDepthTests.fetchWithRetry(AnyDepthTests.depth, on: scheduler)
                }
            }
        }
    }

    @Test("a pager that subscribes the next page from each completion, 10,000 times, delivers every page in order")
    func pagerPerCompletion() async {
        await #expect(processExitsWith: .success) {
            DepthTests.onSmallStack {
                AnyDepthTests.check("pager", expecting: Array(0..<AnyDepthTests.depth)) {
                    AnyDepthTests.pager(AnyDepthTests.depth)
                }
            }
        }
    }

    @Test("10,000 nested then deliver the innermost value, complete once, free all")
    func nestedThenChain() async {
        await #expect(processExitsWith: .success) {
            DepthTests.onSmallStack {
                AnyDepthTests.check("nested then", expecting: [0]) { AnyDepthTests.nestedThen(AnyDepthTests.depth) }
            }
        }
    }

    @Test("shallow versions deliver the same (in process, so a mistake shows as a test failure, not an exit code)")
    func shallow() {
        // Other tests run in this process at the same time: the live-object counts are checked in the child
        // processes above only.
        AnyDepthTests.check("nest/flatMap", expecting: [0], countsLive: false) { AnyDepthTests.nest(50, latest: false) }
        AnyDepthTests.check("nest/flatMapLatest", expecting: [0], countsLive: false) {
            AnyDepthTests.nest(50, latest: true)
        }
        AnyDepthTests.check("nestJust/flatMap", expecting: [0], countsLive: false) {
            AnyDepthTests.nestJust(50, latest: false)
        }
        AnyDepthTests.check("nestJust/flatMapLatest", expecting: [0], countsLive: false) {
            AnyDepthTests.nestJust(50, latest: true)
        }
        let scheduler = TestScheduler()
        AnyDepthTests.check("retry with delay", expecting: [42], countsLive: false, { scheduler.run() }) {
            AnyDepthTests.fetchWithRetry(50, on: scheduler)
        }
        AnyDepthTests.check("pager", expecting: Array(0..<50), countsLive: false) { AnyDepthTests.pager(50) }
        AnyDepthTests.check("nested then", expecting: [0], countsLive: false) { AnyDepthTests.nestedThen(50) }
    }
}
