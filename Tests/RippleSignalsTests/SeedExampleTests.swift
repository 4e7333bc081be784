import Observation
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// A cold signal that sends `values` synchronously, then completes.
func sequence<Value: Sendable>(_ values: [Value]) -> Signal<Value, TestError> {
    Signal { subscriber in
        for value in values { subscriber.send(value) }
        subscriber.sendComplete()
        return .empty
    }
}

/// A "request" that answers `value` after `delay` of virtual time, then completes.
func request<Value: Sendable>(_ value: Value, after delay: Duration, on scheduler: TestScheduler,
                              subscriptions: Recorder<Duration>? = nil) -> Signal<Value, TestError> {
    Signal { subscriber in
        subscriptions?.record(scheduler.now)
        let work = scheduler.schedule(after: delay) {
            subscriber.send(value)
            subscriber.sendComplete()
        }
        return Disposer { work.cancel() }
    }
}

@Observable
final class Order {
    var purchaseNum = 1
}

@Suite("GYSignal.md examples")
struct SeedExampleTests {
    @Test("基本使用: create, subscribe, dispose — error after complete is ignored, cleanup runs once")
    func basicUsage() {
        let log = Recorder<String>()
        let signal = Signal<String, TestError> { subscriber in
            subscriber.send("1")
            subscriber.sendComplete()
            subscriber.sendError(TestError(-1))
            return Disposer { log.record("disposed") }
        }
        let disposer = signal.subscribe(value: { log.record("value=\($0)") },
                                        error: { log.record("error=\($0.code)") },
                                        complete: { log.record("complete") })
        #expect(log.values == ["value=1", "complete", "disposed"])
        disposer.dispose()
        #expect(disposer.isDisposed)
        #expect(log.values == ["value=1", "complete", "disposed"])
    }

    @Test("销毁信号: dispose stops values and runs the cleanup")
    func disposeSubscription() {
        let source = ManualSource<Int, TestError>()
        let received = Recorder<Int>()
        let disposer = source.signal.subscribe(value: { received.record($0) }, error: { _ in })
        source.send(1)
        #expect(!disposer.isDisposed)
        disposer.dispose()
        source.send(2)
        #expect(received.values == [1])
        #expect(disposer.isDisposed)
        #expect(source.disposals == 1)
    }

    @Test("数据绑定: GYObserve(order, purchaseNum) prints the current value, then each change")
    func observePurchaseNum() {
        let scheduler = TestScheduler()
        let order = Order()
        let printed = Recorder<String>()
        let disposer = observe(order, \.purchaseNum, on: scheduler).subscribe { printed.record("value=\($0)") }
        #expect(printed.values == ["value=1"])
        order.purchaseNum = 2
        scheduler.advance()
        order.purchaseNum = 3
        scheduler.advance()
        #expect(printed.values == ["value=1", "value=2", "value=3"])
        disposer.dispose()
        order.purchaseNum = 4
        scheduler.advance()
        #expect(printed.values == ["value=1", "value=2", "value=3"])
    }

    @Test("数据绑定 with @SignalProperty: synchronous, every assignment")
    func signalPropertyBinding() {
        // The wrapper's storage is never reassigned; it forwards to a thread-safe ObservableProperty.
        final class SyncOrder: @unchecked Sendable {
            @SignalProperty var purchaseNum = 1
        }
        let order = SyncOrder()
        let printed = Recorder<String>()
        let disposer = order.$purchaseNum.subscribe { printed.record("value=\($0)") }
        order.purchaseNum = 2
        order.purchaseNum = 3
        #expect(printed.values == ["value=1", "value=2", "value=3"])
        disposer.dispose()
        order.purchaseNum = 4
        #expect(printed.values == ["value=1", "value=2", "value=3"])
    }

    @Test("异步事件组合: [[requestA zip:@[requestB]] flatMap → requestC] — C fires once, after A and B")
    func zipThenFlattenMap() {
        let scheduler = TestScheduler()
        let cSubscribed = Recorder<Duration>()
        let requestA = request("A", after: .seconds(2), on: scheduler)
        let requestB = request("B", after: .seconds(1), on: scheduler)
        let requestC = request("C", after: .seconds(1), on: scheduler, subscriptions: cSubscribed)
        let printed = Recorder<String>()
        let disposer = requestA.zip(requestB)
            .flatMap { pair in
                printed.record("A and B done: \(pair.0), \(pair.1)")
                return requestC
            }
            .subscribe(value: { printed.record("value=\($0)") }, error: { _ in }, complete: { printed.record("complete") })
        scheduler.advance(by: .seconds(1))
        #expect(printed.values.isEmpty)
        #expect(cSubscribed.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(printed.values == ["A and B done: A, B"])
        #expect(cSubscribed.values == [.seconds(2)])
        scheduler.advance(by: .seconds(1))
        #expect(printed.values == ["A and B done: A, B", "value=C", "complete"])
        #expect(cSubscribed.count == 1)
        #expect(disposer.isDisposed)
    }

    @Test("just: the subscriber gets the fixed value once")
    func just() {
        let recorder = Recorder<Event<String>>()
        Signal<String, TestError>.just("666").record(into: recorder)
        #expect(recorder.values == [.value("666"), .complete])
    }

    @Test("filter: odd values only")
    func filter() {
        let recorder = Recorder<Event<Int>>()
        sequence([1, 2, 3, 4, 5, 6]).filter { $0 % 2 != 0 }.record(into: recorder)
        #expect(recorder.values == [.value(1), .value(3), .value(5), .complete])
    }

    @Test("filter and map forward errors")
    func filterForwardsError() {
        let recorder = Recorder<Event<Int>>()
        Signal<Int, TestError>.fail(TestError(7)).filter { _ in true }.map { $0 }.record(into: recorder)
        #expect(recorder.values == [.error(7)])
    }

    @Test("diffrent → different(): only values that differ from the previous one")
    func different() {
        let recorder = Recorder<Event<Int>>()
        sequence([1, 1, 2, 2, 2, 3, 1]).different().record(into: recorder)
        #expect(recorder.values == [.value(1), .value(2), .value(3), .value(1), .complete])
    }

    @Test("take(3): only the first three values")
    func take() {
        let recorder = Recorder<Event<Int>>()
        sequence([1, 2, 3, 4, 5]).take(3).record(into: recorder)
        #expect(recorder.values == [.value(1), .value(2), .value(3), .complete])
    }

    @Test("skip(3): the first three values are ignored")
    func skip() {
        let recorder = Recorder<Event<Int>>()
        sequence([1, 2, 3, 4, 5]).skip(3).record(into: recorder)
        #expect(recorder.values == [.value(4), .value(5), .complete])
    }

    @Test("retry: resubscribes on error while attempts remain")
    func retry() {
        let attempts = Recorder<Int>()
        let flaky = Signal<String, TestError> { subscriber in
            attempts.record(attempts.count + 1)
            if attempts.count < 3 {
                subscriber.sendError(TestError(attempts.count))
            } else {
                subscriber.send("ok")
                subscriber.sendComplete()
            }
            return .empty
        }
        let recorder = Recorder<Event<String>>()
        flaky.retry(3).record(into: recorder)
        #expect(recorder.values == [.value("ok"), .complete])
        #expect(attempts.values == [1, 2, 3])
    }

    @Test("finally: runs after the complete callback, and after the error callback")
    func finally() {
        let log = Recorder<String>()
        let kept = CancelBag()
        sequence([1]).finally { log.record("finally") }
            .subscribe(value: { log.record("value \($0)") }, error: { _ in }, complete: { log.record("complete") }).store(in: kept)
        #expect(log.values == ["value 1", "complete", "finally"])
        log.reset()
        let kept2 = CancelBag()
        Signal<Int, TestError>.fail(TestError(2)).finally { log.record("finally") }
            .subscribe(value: { _ in }, error: { log.record("error \($0.code)") }).store(in: kept2)
        #expect(log.values == ["error 2", "finally"])
    }

    @Test("map: values are transformed")
    func map() {
        let recorder = Recorder<Event<String>>()
        sequence([1, 2]).map { _ in "new value" }.record(into: recorder)
        #expect(recorder.values == [.value("new value"), .value("new value"), .complete])
    }

    @Test("flatMap: each value becomes a signal that is subscribed")
    func flatMap() {
        let recorder = Recorder<Event<String>>()
        sequence([1, 2]).flatMap { value in sequence(["\(value)a", "\(value)b"]) }.record(into: recorder)
        #expect(recorder.values == [.value("1a"), .value("1b"), .value("2a"), .value("2b"), .complete])
    }

    @Test("flatMap: an inner error is forwarded")
    func flattenMapInnerError() {
        let recorder = Recorder<Event<String>>()
        sequence([1, 2]).flatMap { _ in Signal<String, TestError>.fail(TestError(3)) }.record(into: recorder)
        #expect(recorder.values == [.error(3)])
    }

    @Test("then: signal1's values are ignored; on its completion signal2 is subscribed")
    func then() {
        let recorder = Recorder<Event<String>>()
        sequence([1, 2, 3]).then(sequence(["x", "y"])).record(into: recorder)
        #expect(recorder.values == [.value("x"), .value("y"), .complete])
        recorder.reset()
        Signal<Int, TestError>.fail(TestError(4)).then(sequence(["x"])).record(into: recorder)
        #expect(recorder.values == [.error(4)])
    }

    @Test("merge: values of all three signals")
    func merge() {
        let recorder = Recorder<Event<Int>>()
        sequence([1, 2]).merge(sequence([3]), sequence([4, 5])).record(into: recorder)
        #expect(recorder.values == [.value(1), .value(2), .value(3), .value(4), .value(5), .complete])
    }

    @Test("GYSignal's zip (combineLatest): once both sent, a tuple of the latest; complete when both complete")
    func gySignalZip() {
        let first = ManualSource<Int, TestError>()
        let second = ManualSource<String, TestError>()
        let printed = Recorder<String>()
        let kept3 = CancelBag()
        first.signal.combineLatest(second.signal)
            .subscribe(value: { printed.record("\($0.0)\($0.1)") }, error: { _ in }, complete: { printed.record("complete") }).store(in: kept3)
        first.send(1)
        first.send(2)
        #expect(printed.values.isEmpty)
        second.send("a")
        first.send(3)
        first.sendComplete()
        second.send("b")
        #expect(printed.values == ["2a", "3a", "3b"])
        second.sendComplete()
        #expect(printed.values == ["2a", "3a", "3b", "complete"])
    }

    @Test("双向绑定: two-way binding with different() does not loop")
    func twoWayBinding() {
        // Wrapper storage never reassigned; it forwards to thread-safe ObservablePropertys.
        final class Model: @unchecked Sendable {
            @SignalProperty var num = 0
        }
        final class TextField: @unchecked Sendable {
            @SignalProperty var text = "0"
        }
        let model = Model()
        let textField = TextField()
        let textWrites = Recorder<String>()
        let numWrites = Recorder<Int>()
        let toView = model.$num.different().subscribe { value in
            textWrites.record(String(value))
            textField.text = String(value)
        }
        let toModel = textField.$text.different().subscribe { value in
            numWrites.record(Int(value) ?? 0)
            model.num = Int(value) ?? 0
        }
        model.num = 5
        textField.text = "42"
        #expect(model.num == 42)
        #expect(textField.text == "42")
        // Each change crosses once each way and stops: no loop.
        #expect(textWrites.values == ["0", "5", "42"])
        #expect(numWrites.values == [0, 5, 42])
        toView.dispose()
        toModel.dispose()
    }
}

@Suite("Binding")
struct BindingTests {
    @Test("observe: a burst of synchronous changes arrives as its latest value; values never go back")
    func observeCoalescesBursts() {
        let scheduler = TestScheduler()
        let order = Order()
        let printed = Recorder<Int>()
        let kept4 = CancelBag()
        observe(order, \.purchaseNum, on: scheduler).subscribe { printed.record($0) }.store(in: kept4)
        order.purchaseNum = 2
        order.purchaseNum = 3
        scheduler.advance()
        order.purchaseNum = 4
        scheduler.advance()
        #expect(printed.values == [1, 3, 4])
    }

    @Test("observe: the subscription ends when the object is freed, and nothing leaks")
    func observeReleasesWithObject() {
        let scheduler = TestScheduler()
        let completions = Recorder<Int>()
        expectReleased { tracker in
            var order: Order? = Order()
            tracker.track(order!, "order")
            let kept5 = CancelBag()
            observe(order!, \.purchaseNum, on: scheduler).subscribe(complete: { completions.record(1) }).store(in: kept5)
            order!.purchaseNum = 2
            order = nil
            scheduler.run()
        }
        #expect(completions.values == [1])
    }

    @Test("ObservableProperty completes its subscribers when freed; disposed subscribers stop receiving")
    func observablePropertyLifetime() {
        let recorder = Recorder<Event<String>>()
        var property: ObservableProperty<String>? = ObservableProperty("a")
        let kept = property!.signal.record(into: recorder)
        let other = Recorder<Event<String>>()
        property!.signal.record(into: other).dispose()
        property!.value = "b"
        property = nil
        #expect(recorder.values == [.value("a"), .value("b"), .complete])
        #expect(other.values == [.value("a")])
        #expect(kept.isDisposed)
    }
}
