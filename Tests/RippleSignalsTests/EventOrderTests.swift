import Dispatch
import Foundation
import RippleCore
import Testing
@testable import RippleSignals

/// Issue 29: the events every subscriber hears, and their order across subscribers, do not depend on the thread's
/// stack: the trampoline's rule is counted (see `SubscriptionTrampoline`).
@Suite("One event order on every stack")
struct EventOrderTests {
    /// Three subscribers of 2,000-deep chains (take, map, flatMap over a source that sends synchronously, and a hot
    /// source sent to afterwards), subscribed from inside one outer subscription so that the trampoline queues
    /// work: every event with its subscriber, in the order heard.
    static func log() -> [String] {
        let log = Locked<[String]>([])
        let hot = Locked<[SignalSubscriber<Int, Never>]>([])
        let synchronous = Signal<Int, Never> { s in
            s.send(1)
            s.send(2)
            s.sendComplete()
            return .empty
        }
        let hotSource = Signal<Int, Never> { s in
            hot.withLock { $0.append(s) }
            return .empty
        }
        @Sendable func chain(_ source: Signal<Int, Never>, _ kind: Int) -> Signal<Int, Never> {
            var chain = source
            for level in 0..<2_000 {
                switch (kind + level) % 3 {
                case 0: chain = chain.take(10)
                case 1: chain = chain.map { $0 + 1 }
                default: chain = chain.flatMap { .just($0) }
                }
            }
            return chain
        }
        let disposers = Locked<[Disposer]>([])
        let outer = Signal<Int, Never> { _ in
            for id in 0..<3 {
                let sync = chain(synchronous, id).subscribe(
                    value: { value in log.withLock { $0.append("sync \(id): \(value)") } },
                    complete: { log.withLock { $0.append("sync \(id): complete") } })
                let hot = chain(hotSource, id).subscribe(
                    value: { value in log.withLock { $0.append("hot \(id): \(value)") } },
                    complete: { log.withLock { $0.append("hot \(id): complete") } })
                disposers.withLock { $0 += [sync, hot] }
            }
            return .empty
        }
        let outerDisposer = outer.subscribe()
        for subscriber in hot.withLock({ $0 }) {
            subscriber.send(10)
        }
        // From inside a delivery: the hot chains hear 20 while the trampoline runs.
        let inside = Signal<Int, Never> { s in s.send(0); s.sendComplete(); return .empty }
        _ = inside.subscribe(value: { _ in
            for subscriber in hot.withLock({ $0 }) { subscriber.send(20) }
        })
        for subscriber in hot.withLock({ $0 }) { subscriber.sendComplete() }
        outerDisposer.dispose()
        for disposer in disposers.withLock({ $0 }) { disposer.dispose() }
        return log.withLock { $0 }
    }

    static func log(onStack bytes: Int) -> [String] {
        let result = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.withLock { $0 = log() }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return result.withLock { $0 }
    }

    @Test("a 2,000-deep chain's three subscribers hear the same events in the same order on 512 KiB and 8 MiB")
    func sameOrderOnEveryStack() {
        let small = Self.log(onStack: 512 * 1024)
        let large = Self.log(onStack: 8 * 1024 * 1024)
        #expect(small == large)
        // Every subscriber heard its own events in order, and completed once.
        for id in 0..<3 {
            #expect(small.filter { $0.hasPrefix("sync \(id):") }.count == 3, "sync \(id)")
            #expect(small.filter { $0.hasPrefix("hot \(id):") }.count == 3, "hot \(id)")
            #expect(small.last { $0.hasPrefix("hot \(id):") } == "hot \(id): complete")
        }
    }
}
