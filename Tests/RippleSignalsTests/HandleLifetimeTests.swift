// The lifetime rule for signals: the disposer `subscribe` returns is the subscription's handle — released, it ends
// the subscription; kept (a property, a bag), the subscription runs until it is disposed or the keeper goes.
import RippleCore
import RippleSignals
import RippleTesting
import Testing

@Suite("Subscription handles: a handle you drop stops the work")
struct HandleLifetimeTests {
    /// Each shape of subscription `subscribe` can return a handle for: a source made with an action, a map/filter
    /// chain over it, a fused `flatMap` (whose handle is its `WeakDisposer`), and multi-input operators.
    static let shapes: [(String, @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
        ("action source", { $0 }),
        ("map/filter chain", { $0.map { $0 }.filter { _ in true } }),
        ("flatMap", { source in source.flatMap { Signal.just($0) } }),
        ("merge", { source in source.merge(.never) }),
        // Operators whose disposer is neither a core nor a `WeakDisposer` (a combining state, a plain `Disposer`):
        // the general handle.
        ("combineLatest", { source in source.combineLatest(Signal.just(0)).map { $0.0 } }),
        ("retry", { source in source.retry(1) }),
    ]

    @Test("a dropped handle ends the subscription: no more values, the source's cleanup runs",
          arguments: shapes.map(\.0))
    func droppedHandleStops(shape: String) {
        let build = Self.shapes.first { $0.0 == shape }!.1
        let source = ManualSource<Int, TestError>()
        let values = Recorder<Int>()
        do {
            let handle = build(source.signal).subscribe(value: { values.record($0) }, error: { _ in })
            source.send(1)
            #expect(!handle.isDisposed)
        }
        source.send(2)
        #expect(values.values == [1])
        #expect(source.disposals == 1)
    }

    @Test("a handle kept in a bag runs until the bag goes", arguments: shapes.map(\.0))
    func bagKeepsHandle(shape: String) {
        let build = Self.shapes.first { $0.0 == shape }!.1
        let source = ManualSource<Int, TestError>()
        let values = Recorder<Int>()
        var bag: CancelBag? = CancelBag()
        build(source.signal).subscribe(value: { values.record($0) }, error: { _ in }).store(in: bag!)
        source.send(1)
        source.send(2)
        #expect(source.disposals == 0)
        bag = nil
        source.send(3)
        #expect(values.values == [1, 2])
        #expect(source.disposals == 1)
    }

    @Test("a handle kept in a property runs until its owner is freed, and frees the owner's source")
    func propertyKeepsHandle() {
        final class Model: @unchecked Sendable {
            var handle: Disposer?
            let seen = Recorder<Int>()
        }
        let source = ManualSource<Int, TestError>()
        var model: Model? = Model()
        let seen = model!.seen
        model!.handle = source.signal.subscribe(value: { [weak model] in model?.seen.record($0) }, error: { _ in })
        source.send(1)
        #expect(source.disposals == 0)
        model = nil
        source.send(2)
        #expect(seen.values == [1])
        #expect(source.disposals == 1)
    }

    @Test("the handle of a subscription that ended while subscribing is the ended subscription itself")
    func endedSubscriptionHandle() {
        let handle = Signal<Int, Never>.just(1).subscribe(value: { _ in })
        #expect(handle.isDisposed)
        let failed = Signal<Int, TestError>.fail(TestError(1)).subscribe(value: { _ in }, error: { _ in })
        #expect(failed.isDisposed)
    }

    @Test("disposing a handle, then releasing it, ends the subscription once")
    func disposeThenRelease() {
        let source = ManualSource<Int, TestError>()
        do {
            let handle = source.signal.subscribe(value: { _ in }, error: { _ in })
            handle.dispose()
            handle.dispose()
            #expect(handle.isDisposed)
        }
        #expect(source.disposals == 1)
    }

    @Test("a handle released on another thread while values arrive: delivery stops, cleanup runs once",
          .tags(.stress))
    func releasedWhileValuesArrive() {
        final class Round: @unchecked Sendable {
            let source = ManualSource<Int, TestError>()
            let count = Locked(0)
            let handle: Locked<Disposer?> = Locked(nil)
            init() {
                let count = self.count
                handle.withLock {
                    $0 = source.signal.map { $0 + 1 }
                        .subscribe(value: { _ in count.withLock { $0 += 1 } }, error: { _ in })
                }
            }
        }
        let round = Locked(Round())
        let failures = Locked(0)
        LockstepBarrier.race(rounds: 2_000) {
            let current = round.value
            for value in 0..<50 { current.source.send(value) }
        } second: {
            let current = round.value
            current.handle.withLock { $0 = nil }
        } check: {
            let current = round.value
            let seen = current.count.value
            current.source.send(1_000)
            if current.count.value != seen || current.source.disposals != 1 {
                failures.withLock { $0 += 1 }
            }
            round.withLock { $0 = Round() }
        }
        #expect(failures.value == 0)
    }
}
