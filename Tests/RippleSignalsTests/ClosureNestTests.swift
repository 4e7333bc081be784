import Dispatch
import Foundation
import RippleCore
import Testing
@testable import RippleSignals

/// Recipes nested through closures (`s = .just(0).flatMap { _ in previous }`, repeated) 100,000 deep are freed on a
/// 512 KiB thread, and subscribed deliver the innermost value, complete once and free everything: every held closure
/// or flattening recipe counts its release (see HeldClosure.swift). Each test runs in a child process, so a stack
/// overflow fails the test, not the run; the child stops with a message when a check fails.
@Suite("Closure nests: 100,000 recipes each captured by the next one's closure, on a 512 KiB thread")
struct ClosureNestTests {
    static let depth = 100_000

    struct Failed: Error {}

    /// One level of each kind over `previous`.
    static func level(_ kind: String, over previous: Signal<Int, Failed>) -> Signal<Int, Failed> {
        switch kind {
        case "flatMap": Signal<Int, Failed>.just(0).flatMap { _ in previous }
        case "flatMapLatest": Signal<Int, Failed>.just(0).flatMapLatest { _ in previous }
        case "map+switchToLatest": Signal<Int, Failed>.just(0).map { _ in previous }.switchToLatest()
        case "just+switchToLatest": Signal<Signal<Int, Failed>, Failed>.just(previous).switchToLatest()
        case "catch": Signal<Int, Failed>.fail(Failed()).catch { _ in previous }
        default: fatalError("unknown kind \(kind)")
        }
    }

    static let kinds = ["flatMap", "flatMapLatest", "map+switchToLatest", "just+switchToLatest", "catch"]

    static func nest(_ kind: String, depth: Int) -> Signal<Int, Failed> {
        var signal = Signal<Int, Failed>.just(7)
        for _ in 0..<depth { signal = level(kind, over: signal) }
        return signal
    }

    /// Builds the nest, subscribes it when asked (checking the value, one completion and the live count), drops it,
    /// and checks that nothing waits in the release drain.
    static func run(_ kind: String, depth: Int, subscribing: Bool) {
        let baseline = DeepChainTests.liveSubscribers
        do {
            let signal = nest(kind, depth: depth)
            if subscribing {
                let received = Locked<[Int]>([])
                let ended = Locked(0)
                let disposer = signal.subscribe(value: { value in received.withLock { $0.append(value) } },
                                                error: { _ in ended.withLock { $0 += 100 } },
                                                complete: { ended.withLock { $0 += 1 } })
                disposer.dispose()
                precondition(received.withLock { $0 } == [7], "\(kind): received \(received.withLock { $0.prefix(3) })")
                precondition(ended.withLock { $0 } == 1, "\(kind): terminal events \(ended.withLock { $0 }) (100 per error)")
            }
        }
        precondition(DeepChainTests.liveSubscribers == baseline,
                     "\(kind): \(DeepChainTests.liveSubscribers - baseline) subscribers or states still live")
        precondition(RecipeRelease.isIdle && RecipeNesting.isIdle, "\(kind): a release was left waiting")
    }

    @Test("a 100,000-deep closure nest is built and freed on a 512 KiB thread", arguments: kinds)
    func freed(_ kind: String) async {
        await #expect(processExitsWith: .success) { [kind] in
            DepthTests.onSmallStack { ClosureNestTests.run(kind, depth: ClosureNestTests.depth, subscribing: false) }
        }
    }

    @Test("a 100,000-deep closure nest subscribed delivers its innermost value, completes once and frees all",
          arguments: kinds)
    func subscribed(_ kind: String) async {
        await #expect(processExitsWith: .success) { [kind] in
            DepthTests.onSmallStack { ClosureNestTests.run(kind, depth: ClosureNestTests.depth, subscribing: true) }
        }
    }

    @Test("a nest whose captured signals each carry 63 maps (as many as the release barriers leave uncut) is freed")
    func capturedChains() async {
        // Between two counted levels lie the captured signal's own operators: with a count of 32 before the drain,
        // 5,000 levels of 60 maps overflowed the 512 KiB thread.
        await #expect(processExitsWith: .success) {
            DepthTests.onSmallStack {
                var signal = Signal<Int, Never>.just(7)
                for _ in 0..<5_000 {
                    var captured = signal
                    for _ in 0..<63 { captured = captured.map { $0 } }
                    signal = Signal<Int, Never>.just(0).flatMap { [captured] _ in captured }
                }
                let received = Locked<[Int]>([])
                let disposer = signal.subscribe(value: { value in received.withLock { $0.append(value) } })
                disposer.dispose()
                precondition(received.withLock { $0 } == [7], "received \(received.withLock { $0.prefix(3) })")
                signal = .just(0)
                precondition(RecipeRelease.isIdle && RecipeNesting.isIdle, "a release was left waiting")
            }
        }
    }

    @Test("shallow nests deliver the same (in process, so a mistake shows as a test failure, not an exit code)",
          arguments: kinds)
    func shallow(_ kind: String) {
        let received = Locked<[Int]>([])
        let ended = Locked(0)
        let disposer = Self.nest(kind, depth: 100).subscribe(value: { value in received.withLock { $0.append(value) } },
                                                            error: { _ in ended.withLock { $0 += 100 } },
                                                            complete: { ended.withLock { $0 += 1 } })
        disposer.dispose()
        #expect(received.withLock { $0 } == [7])
        #expect(ended.withLock { $0 } == 1)
        #expect(RecipeNesting.isIdle)
    }
}
