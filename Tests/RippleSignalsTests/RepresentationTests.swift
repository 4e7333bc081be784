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
        #expect(just.deliversSerially && mapped.deliversSerially && !action.deliversSerially)
        if case .action = action.body {} else { Issue.record("an action signal is not .action") }
        if case .fused = mapped.body {} else { Issue.record("map is not fused") }
        if case .fused = just.map({ $0 }).body {} else { Issue.record("map over just is not fused") }
    }

    // The subscriber at the end of a map/filter chain is fed serially by the chain's head subscriber: it must still
    // drop values after disposal and end with the first terminal event.
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

    // `subscribe` hands out the subscription's shared core and flattenMap/merge their completion group as the
    // disposer (no wrapper objects): each must still behave as a disposer.
    @Test("subscribe's disposer ends with the subscription: completion, disposal or the subscriber's release")
    func subscriptionDisposer() {
        let completed = Signal<Int, TestError>.just(1).subscribe()
        #expect(completed.isDisposed)

        let held = Locked<[Subscriber<Int, TestError>]>([])
        let cleanups = Recorder<Int>()
        let pending = Signal<Int, TestError> { subscriber in
            held.withLock { $0.append(subscriber) }
            return Disposer { cleanups.record(1) }
        }
        let disposer = pending.subscribe()
        #expect(!disposer.isDisposed && !disposer.isCancelled)
        disposer.cancel()
        disposer.dispose()
        #expect(disposer.isDisposed && disposer.isCancelled)
        #expect(cleanups.values == [1])

        let released = pending.subscribe()
        #expect(!released.isDisposed)
        held.withLock { $0.removeAll() }
        #expect(released.isDisposed)
        #expect(cleanups.values == [1, 1])
    }

    @Test("flattenMap's and merge's disposer ends their inputs once and reports it")
    func groupDisposer() {
        let source = ManualSource<Int, TestError>()
        let inner = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let flattened = source.signal.flattenMap { _ in inner.signal }.record(into: recorder)
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
}
