import Dispatch
import Foundation
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Detects overlapping callbacks. `@unchecked Sendable`: `inside` is only touched under `lock`.
final class OverlapDetector: @unchecked Sendable {
    private let lock = Lock()
    private var inside = false
    private(set) var overlaps = 0

    func enter() {
        lock.withLock {
            if inside { overlaps += 1 }
            inside = true
        }
    }

    func leave() {
        lock.withLock { inside = false }
    }
}

@Suite("Stress")
struct StressTests {
    static let threads = 8
    static let perThread = 5_000

    @Test("8 threads sending into one subscriber: serialised, none lost, complete last", .tags(.stress))
    func concurrentSends() {
        let detector = OverlapDetector()
        let received = Recorder<Int>()
        let completions = Recorder<Int>()
        let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { subscriber in
            holder.withLock { $0 = subscriber }
            return .empty
        }
        let kept = CancelBag()
        signal.subscribe(value: { value in
            detector.enter()
            received.record(value)
            detector.leave()
        }, complete: { completions.record(received.count) }).store(in: kept)
        let subscriber = holder.value!
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread {
                subscriber.send(thread * Self.perThread + index)
            }
        }
        subscriber.sendComplete()
        #expect(detector.overlaps == 0)
        let values = received.values
        #expect(values.count == Self.threads * Self.perThread)
        #expect(Set(values).count == Self.threads * Self.perThread)
        #expect(completions.values == [Self.threads * Self.perThread])
        // Each thread's own values keep their order.
        for thread in 0..<Self.threads {
            let mine = values.filter { $0 / Self.perThread == thread }
            #expect(mine == mine.sorted())
        }
    }

    @Test("8 threads sending through map/filter/different while one completes: nothing after complete",
          .tags(.stress))
    func concurrentSendsAndTerminal() {
        for _ in 0..<50 {
            let detector = OverlapDetector()
            let events = Recorder<String>()
            let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
            let kept2 = CancelBag()
            Signal<Int, Never> { subscriber in
                holder.withLock { $0 = subscriber }
                return .empty
            }
            .map { $0 * 2 }
            .filter { $0 >= 0 }
            .subscribe(value: { _ in
                detector.enter()
                events.record("v")
                detector.leave()
            }, complete: { events.record("complete") }).store(in: kept2)
            let subscriber = holder.value!
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<200 {
                    if thread == 0 && index == 100 { subscriber.sendComplete() }
                    subscriber.send(index)
                }
            }
            #expect(detector.overlaps == 0)
            #expect(events.values.last == "complete")
            #expect(events.values.filter { $0 == "complete" }.count == 1)
        }
    }

    // The uncontended path enters and leaves with one compare-exchange each; disposal from another thread must
    // still close the subscriber, keep callbacks one at a time and run the cleanup exactly once.
    @Test("8 threads sending through map/filter while another disposes: serialised, cleanup once, then silent",
          .tags(.stress))
    func concurrentSendsAndDispose() {
        for _ in 0..<50 {
            let detector = OverlapDetector()
            let received = Recorder<Int>()
            let cleanups = Recorder<Int>()
            let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
            let disposer = Signal<Int, Never> { subscriber in
                holder.withLock { $0 = subscriber }
                return Disposer { cleanups.record(1) }
            }
            .map { $0 + 1 }
            .filter { $0 > 0 }
            .subscribe(value: { value in
                detector.enter()
                received.record(value)
                detector.leave()
            })
            let subscriber = holder.value!
            DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
                if thread == Self.threads {
                    disposer.dispose()
                    return
                }
                for index in 0..<200 { subscriber.send(index) }
            }
            let count = received.count
            subscriber.send(1)
            #expect(received.count == count)
            #expect(detector.overlaps == 0)
            #expect(cleanups.values == [1])
            #expect(subscriber.isDisposed)
            #expect(disposer.isDisposed)
        }
    }

    // combineLatest delivers a tuple at once when no other thread is emitting and queues it otherwise.
    @Test("8 threads feeding combineLatest inputs: one tuple per value, one at a time", .tags(.stress))
    func concurrentCombineLatest() {
        let left = ManualSource<Int, Never>()
        let right = ManualSource<Int, Never>()
        let detector = OverlapDetector()
        let tuples = Recorder<Int>()
        let combined: Signal<(Int, Int), Never> = left.signal.combineLatest(right.signal)
        let kept3 = CancelBag()
        combined.subscribe(value: { pair in
            detector.enter()
            tuples.record(pair.0 + pair.1)
            detector.leave()
        }).store(in: kept3)
        left.send(0)
        right.send(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<1_000 {
                if thread % 2 == 0 { left.send(index) } else { right.send(index) }
            }
        }
        #expect(tuples.count == 1 + Self.threads * 1_000)
        #expect(detector.overlaps == 0)
    }

    // The four-input combineLatest keeps its slots under the shared lock and emits through the same ordered hand-off;
    // one thread per input (two per input here) sends while the others do.
    @Test("8 threads feeding a four-input combineLatest: one tuple per value, one at a time, complete last",
          .tags(.stress))
    func concurrentCombineLatestFourInputs() {
        let sources = (0..<4).map { _ in ManualSource<Int, Never>() }
        let detector = OverlapDetector()
        let tuples = Recorder<Int>()
        let completions = Recorder<Int>()
        let combined: Signal<(Int, Int, Int, Int), Never> =
            sources[0].signal.combineLatest(sources[1].signal, sources[2].signal, sources[3].signal)
        let kept4 = CancelBag()
        combined.subscribe(value: { values in
            detector.enter()
            tuples.record(values.0 + values.1 + values.2 + values.3)
            detector.leave()
        }, complete: { completions.record(tuples.count) }).store(in: kept4)
        for source in sources { source.send(0) }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<1_000 { sources[thread % 4].send(index) }
        }
        for source in sources { source.sendComplete() }
        #expect(tuples.count == 1 + Self.threads * 1_000)
        #expect(detector.overlaps == 0)
        #expect(completions.values == [1 + Self.threads * 1_000])
    }

    // The disposer and the subscriber share the subscription's core: disposing it while the producer lets go of the
    // subscriber (whose deinit disposes the core too) must run the cleanup exactly once.
    @Test("disposing while the subscriber is freed on another thread runs the cleanup once", .tags(.stress))
    func disposeRacesRelease() {
        for _ in 0..<500 {
            let cleanups = Recorder<Int>()
            let source = ManualSource<Int, Never>()
            let disposer = Signal<Int, Never> { subscriber in
                let inner = source.signal.subscribe(value: { subscriber.send($0) })
                return Disposer {
                    inner.dispose()
                    cleanups.record(1)
                }
            }.map { $0 }.subscribe()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { disposer.dispose() } else { source.forgetSubscribers() }
            }
            #expect(cleanups.values == [1])
            #expect(disposer.isDisposed)
        }
    }

    @Test("8 threads feeding zip and merge inputs: every value accounted for", .tags(.stress))
    func concurrentCombining() {
        let left = ManualSource<Int, Never>()
        let right = ManualSource<Int, Never>()
        let pairs = Recorder<Int>()
        let merged = Recorder<Int>()
        let zipped: Signal<(Int, Int), Never> = left.signal.zip(right.signal)
        let kept5 = CancelBag()
        zipped.subscribe(value: { pair in pairs.record(pair.0 - pair.1) }).store(in: kept5)
        let kept6 = CancelBag()
        left.signal.merge(right.signal).subscribe(value: { merged.record($0) }).store(in: kept6)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<1_000 {
                if thread % 2 == 0 { left.send(index) } else { right.send(index) }
            }
        }
        #expect(pairs.count == 4_000)
        #expect(merged.count == 8_000)
        let expectedSum: Int = 8 * (999 * 1_000 / 2)
        let sum: Int = merged.values.reduce(0, +)
        #expect(sum == expectedSum)
    }

    // flatMap makes no subscriber of its own: its state orders what its inner signals send from any thread.
    @Test("flatMap: 8 inners sending from 8 threads and a callback sending re-entrantly: one at a time, none lost",
          .tags(.stress))
    func concurrentFlatMapInners() {
        for _ in 0..<20 {
            let source = ManualSource<Int, Never>()
            let inners = (0..<Self.threads).map { _ in ManualSource<Int, Never>() }
            let echo = ManualSource<Int, Never>()
            let detector = OverlapDetector()
            let received = Recorder<Int>()
            let completions = Locked(0)
            let disposer = source.signal.flatMap { index in index < Self.threads ? inners[index].signal : echo.signal }
                .subscribe(value: { value in
                    detector.enter()
                    received.record(value)
                    // Re-entrant: sent from inside this callback, delivered after it returns.
                    if value == 0 { echo.send(-1) }
                    detector.leave()
                }, complete: { completions.withLock { $0 += 1 } })
            for index in 0...Self.threads { source.send(index) }
            source.sendComplete()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for value in 0..<500 { inners[thread].send(value) }
                inners[thread].sendComplete()
            }
            #expect(completions.value == 0, "completed while the echo inner still runs")
            echo.sendComplete()
            #expect(detector.overlaps == 0)
            #expect(received.count == Self.threads * 500 + Self.threads)
            let sum: Int = received.values.reduce(0, +)
            #expect(sum == Self.threads * (499 * 500 / 2) - Self.threads)
            #expect(completions.value == 1)
            #expect(disposer.isDisposed)
        }
    }

    @Test("share(): subscribers joining and leaving on 3 threads while another sends: each hears an increasing run",
          .tags(.stress))
    func shareChurn() {
        let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
        let shared = Signal<Int, Never> { subscriber in
            holder.withLock { $0 = subscriber }
            return .empty
        }.share()
        // One subscriber for the whole run keeps the connection (and so the producer's subscriber) alive.
        let whole = Recorder<Int>()
        let kept = shared.subscribe(value: { whole.record($0) })
        let upstream = holder.value!
        // A fixed number of values, so the run is bounded on every build (unbounded, a sanitizer build sent
        // millions while the churners were slow); the churners run until the last one is sent.
        let sentCount = 20_000
        let done = Locked(false)
        Thread.detachNewThread {
            for value in 0..<sentCount { upstream.send(value) }
            done.withLock { $0 = true }
        }
        let disordered = Locked(0)
        let rounds = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            while !done.value {
                let heard = Recorder<Int>()
                let subscription = shared.subscribe(value: { heard.record($0) })
                for _ in 0..<20 { _ = heard.count }
                subscription.dispose()
                let values = heard.values
                if zip(values, values.dropFirst()).contains(where: { $0 >= $1 }) { disordered.withLock { $0 += 1 } }
                rounds.withLock { $0 += 1 }
            }
        }
        kept.dispose()
        #expect(disordered.value == 0)
        #expect(rounds.value > 0)
        // The subscriber that stayed heard every value once, in order.
        #expect(whole.values == Array(0..<sentCount))
    }
}
