import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Facts about how signals and subscriptions are represented that the hot paths rely on.
@Suite("Representation")
struct RepresentationTests {
    // One enum case per kind of signal: a `just` stores its value inline, and an `Int` signal stays within the
    // three-word inline buffer of an existential (it grew to 41 bytes with a field per kind).
    @Test("a Signal of a small value is at most 32 bytes, whatever its kind")
    func signalSize() {
        #expect(MemoryLayout<Signal<Int, Never>>.size <= 32)
        #expect(MemoryLayout<Signal<String, any Error>>.size <= 32)
        #expect(MemoryLayout<Signal<(Int, Int), TestError>>.size <= 32)
    }

    @Test("the kinds of signal are told apart: just carries its value, action and map/filter do not")
    func kinds() {
        let just = Signal<Int, Never>.just(7)
        let action = Signal<Int, Never> { subscriber in
            subscriber.send(1)
            return .empty
        }
        let mapped = action.map { $0 + 1 }
        #expect(just.justValue == 7)
        #expect(action.justValue == nil && mapped.justValue == nil)
        if case .action = action.body {} else { Issue.record("an action signal is not .action") }
        if case .fused = mapped.body {} else { Issue.record("map is not fused") }
        if case .fused = just.map({ $0 }).body {} else { Issue.record("map over just is not fused") }
    }

    // A map/filter chain or a `just` subscribed with callbacks gets no subscriber at its end: the chain's head
    // subscriber (or the `just` itself) calls the callbacks, and the disposer is the head's (or, for a `just`, one
    // that has already ended).
    @Test("a map/filter chain subscribed with callbacks: grammar, disposal and the disposer")
    func fusedSubscribedWithCallbacks() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let disposer = source.signal.map { $0 * 2 }.filter { $0 != 4 }.record(into: recorder)
        source.send(1)
        source.send(2)
        source.send(3)
        #expect(recorder.values == [.value(2), .value(6)])
        #expect(!disposer.isDisposed)
        disposer.dispose()
        source.send(4)
        source.sendComplete()
        #expect(recorder.values == [.value(2), .value(6)])
        #expect(disposer.isDisposed && source.disposals == 1)

        let ended = Recorder<Event<Int>>()
        let endedDisposer = source.signal.map { $0 }.record(into: ended)
        source.sendError(TestError(3))
        source.send(5)
        source.sendComplete()
        #expect(ended.values == [.error(3)])
        #expect(endedDisposer.isDisposed)

        let just = Recorder<Event<Int>>()
        let justDisposer = Signal<Int, TestError>.just(5).map { $0 + 1 }.record(into: just)
        #expect(just.values == [.value(6), .complete])
        #expect(justDisposer.isDisposed)
        justDisposer.dispose()
        #expect(justDisposer.isDisposed)
        let plain = Recorder<Int>()
        let plainDisposer = Signal<Int, Never>.just(8).subscribe(value: { plain.record($0) })
        #expect(plain.values == [8] && plainDisposer.isDisposed)
    }

    // `subscribe` hands out the subscription's shared core and flatMap/merge their completion group as the
    // disposer (no wrapper objects): each must still behave as a disposer.
    @Test("subscribe's disposer ends with the subscription: completion, disposal or the subscriber's release")
    func subscriptionDisposer() {
        let completed = Signal<Int, TestError>.just(1).subscribe(value: { _ in }, error: { _ in })
        #expect(completed.isDisposed)

        let held = Locked<[SignalSubscriber<Int, TestError>]>([])
        let cleanups = Recorder<Int>()
        let pending = Signal<Int, TestError> { subscriber in
            held.withLock { $0.append(subscriber) }
            return Disposer { cleanups.record(1) }
        }
        let disposer = pending.subscribe(value: { _ in }, error: { _ in })
        #expect(!disposer.isDisposed && !disposer.isCancelled)
        disposer.cancel()
        disposer.dispose()
        #expect(disposer.isDisposed && disposer.isCancelled)
        #expect(cleanups.values == [1])

        let released = pending.subscribe(value: { _ in }, error: { _ in })
        #expect(!released.isDisposed)
        held.withLock { $0.removeAll() }
        #expect(released.isDisposed)
        #expect(cleanups.values == [1, 1])
    }

    @Test("flatMap's and merge's disposer ends their inputs once and reports it")
    func groupDisposer() {
        let source = ManualSource<Int, TestError>()
        let inner = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let flattened = source.signal.flatMap { _ in inner.signal }.record(into: recorder)
        source.send(1)
        let merged = source.signal.merge(inner.signal).record(into: recorder)
        #expect(source.subscriptions == 2 && inner.subscriptions == 2)
        flattened.dispose()
        flattened.dispose()
        #expect(flattened.isDisposed)
        #expect(source.disposals == 1 && inner.disposals == 1)
        merged.dispose()
        #expect(merged.isDisposed)
        #expect(source.disposals == 2 && inner.disposals == 2)
    }

    // A filter hands its predicate to the operator above it instead of wrapping the value callback; the order in
    // which transforms and predicates run (and so their side effects) must stay the chain's order.
    @Test("map/filter chains run transforms and predicates in chain order, over an action source and over just")
    func fusedFilterOrder() {
        let calls = Recorder<String>()
        func chain(_ source: Signal<Int, TestError>) -> Signal<Int, TestError> {
            source
                .filter { calls.record("f1(\($0))"); return $0 != 2 }
                .map { calls.record("m1(\($0))"); return $0 * 10 }
                .filter { calls.record("f2(\($0))"); return $0 != 30 }
                .filter { calls.record("f3(\($0))"); return $0 != 40 }
                .map { calls.record("m2(\($0))"); return $0 + 1 }
                .filter { calls.record("f4(\($0))"); return true }
        }
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let disposer = chain(source.signal).record(into: recorder)
        for value in 1...5 { source.send(value) }
        source.sendComplete()
        #expect(recorder.values == [.value(11), .value(51), .complete])
        #expect(calls.values == [
            "f1(1)", "m1(1)", "f2(10)", "f3(10)", "m2(10)", "f4(11)",
            "f1(2)",
            "f1(3)", "m1(3)", "f2(30)",
            "f1(4)", "m1(4)", "f2(40)", "f3(40)",
            "f1(5)", "m1(5)", "f2(50)", "f3(50)", "m2(50)", "f4(51)",
        ])
        #expect(disposer.isDisposed)

        let kept = Recorder<Event<Int>>()
        chain(.just(5)).record(into: kept)
        #expect(kept.values == [.value(51), .complete])
        let dropped = Recorder<Event<Int>>()
        chain(.just(3)).record(into: dropped)
        #expect(dropped.values == [.complete])

        // A filter right below the source: its predicate is tested by the source's own subscriber.
        let direct = Recorder<Event<Int>>()
        let other = ManualSource<Int, TestError>()
        other.signal.filter { $0.isMultiple(of: 2) }.filter { $0 > 2 }.record(into: direct)
        for value in 1...6 { other.send(value) }
        other.sendError(TestError(4))
        #expect(direct.values == [.value(4), .value(6), .error(4)])

        // Inner signals of flatMap and inputs of merge are attached the same way.
        let merged = Recorder<Event<Int>>()
        Signal<Int, TestError>.just(1).merge(Signal.just(2).filter { $0 > 5 }, chain(.just(1)))
            .flatMap { Signal.just($0).filter { $0 != 1 } }
            .record(into: merged)
        #expect(merged.values == [.value(11), .complete])
    }
}
