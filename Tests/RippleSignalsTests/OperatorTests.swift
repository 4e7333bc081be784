import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("Operators")
struct OperatorTests {
    @Test("creation: empty completes, never stays silent, fail errors")
    func creation() {
        let recorder = Recorder<Event<Int>>()
        Signal<Int, TestError>.empty.record(into: recorder)
        #expect(recorder.values == [.complete])
        recorder.reset()
        Signal<Int, TestError>.never.record(into: recorder)
        #expect(recorder.values.isEmpty)
        Signal<Int, TestError>.fail(TestError(8)).record(into: recorder)
        #expect(recorder.values == [.error(8)])
    }

    @Test("two subscribers to one take(3) signal each get their own first three values")
    func independentTake() {
        let source = ManualSource<Int, TestError>()
        let taken = source.signal.take(3)
        let first = Recorder<Event<Int>>()
        let second = Recorder<Event<Int>>()
        taken.record(into: first)
        source.send(1)
        source.send(2)
        taken.record(into: second)
        source.send(3)
        source.send(4)
        source.send(5)
        #expect(first.values == [.value(1), .value(2), .value(3), .complete])
        #expect(second.values == [.value(3), .value(4), .value(5), .complete])
    }

    @Test("two subscribers to one distinctUntilChanged() signal each remember their own previous value")
    func independentDifferent() {
        let source = ManualSource<Int, TestError>()
        let distinct = source.signal.distinctUntilChanged()
        let first = Recorder<Event<Int>>()
        let second = Recorder<Event<Int>>()
        distinct.record(into: first)
        source.send(1)
        distinct.record(into: second)
        source.send(1)
        source.send(2)
        #expect(first.values == [.value(1), .value(2)])
        #expect(second.values == [.value(1), .value(2)])
    }

    @Test("two subscribers to one zip signal each get their own pairs")
    func independentZip() {
        let left = ManualSource<Int, TestError>()
        let right = ManualSource<String, TestError>()
        let zipped = left.signal.zip(right.signal)
        let first = Recorder<String>()
        let second = Recorder<String>()
        let kept = CancelBag()
        zipped.subscribe(value: { first.record("\($0.0)\($0.1)") }, error: { _ in }).store(in: kept)
        left.send(1)
        let kept2 = CancelBag()
        zipped.subscribe(value: { second.record("\($0.0)\($0.1)") }, error: { _ in }).store(in: kept2)
        right.send("a")
        left.send(2)
        right.send("b")
        #expect(first.values == ["1a", "2b"])
        #expect(second.values == ["2a"])
    }

    @Test("retry(n) subscribes at most n + 1 times, then forwards the error")
    func retryLimit() {
        for retries in [0, 1, 3, 10_000] {
            let subscriptions = Recorder<Int>()
            let recorder = Recorder<Event<Int>>()
            Signal<Int, TestError> { subscriber in
                subscriptions.record(1)
                subscriber.send(subscriptions.count)
                subscriber.sendError(TestError(subscriptions.count))
                return .empty
            }.retry(retries).take(Int.max).record(into: recorder)
            #expect(subscriptions.count == retries + 1)
            #expect(recorder.values.last == .error(retries + 1))
            #expect(recorder.count == retries + 2)
        }
    }

    @Test("retry re-subscribes an asynchronous source, and dispose stops it")
    func retryAsynchronous() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let disposer = source.signal.retry(2).record(into: recorder)
        source.send(1)
        source.sendError(TestError(1))
        #expect(source.subscriptions == 2)
        source.send(2)
        disposer.dispose()
        #expect(source.disposals == 2)
        source.sendError(TestError(2))
        #expect(source.subscriptions == 2)
        #expect(recorder.values == [.value(1), .value(2)])
    }

    @Test("take completes early and disposes its source")
    func takeDisposesSource() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        source.signal.take(2).record(into: recorder)
        source.send(1)
        #expect(source.disposals == 0)
        source.send(2)
        #expect(recorder.values == [.value(1), .value(2), .complete])
        #expect(source.disposals == 1)
        source.send(3)
        #expect(recorder.count == 3)
    }

    @Test("take stops a synchronous producer that polls isDisposed")
    func takeStopsSynchronousProducer() {
        let produced = Recorder<Int>()
        let endless = Signal<Int, TestError> { subscriber in
            var next = 0
            while !subscriber.isDisposed && next < 1_000_000 {
                next += 1
                produced.record(next)
                subscriber.send(next)
            }
            return .empty
        }
        let recorder = Recorder<Event<Int>>()
        endless.take(3).record(into: recorder)
        #expect(recorder.values == [.value(1), .value(2), .value(3), .complete])
        #expect(produced.count == 3)
    }

    @Test("take(0) completes without subscribing")
    func takeZero() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        source.signal.take(0).record(into: recorder)
        #expect(recorder.values == [.complete])
        #expect(source.subscriptions == 0)
    }

    @Test("merge completes only when every input has completed; the first error ends it")
    func mergeCompletion() {
        let a = ManualSource<Int, TestError>()
        let b = ManualSource<Int, TestError>()
        let c = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        a.signal.merge([b.signal, c.signal]).record(into: recorder)
        a.send(1)
        a.sendComplete()
        b.send(2)
        b.sendComplete()
        #expect(recorder.values == [.value(1), .value(2)])
        c.send(3)
        c.sendComplete()
        #expect(recorder.values == [.value(1), .value(2), .value(3), .complete])

        let failed = Recorder<Event<Int>>()
        let d = ManualSource<Int, TestError>()
        let e = ManualSource<Int, TestError>()
        d.signal.merge(e.signal).record(into: failed)
        d.sendError(TestError(3))
        e.send(9)
        #expect(failed.values == [.error(3)])
        #expect(e.disposals == 1)
    }

    @Test("merge of synchronous signals completes after all of them")
    func mergeSynchronous() {
        let recorder = Recorder<Event<Int>>()
        Signal<Int, TestError>.empty.merge(sequence([1])).record(into: recorder)
        #expect(recorder.values == [.value(1), .complete])
    }

    @Test("flatMap completes only when the source and every inner signal have completed")
    func flattenMapCompletion() {
        let source = ManualSource<Int, TestError>()
        let inners = [ManualSource<String, TestError>(), ManualSource<String, TestError>()]
        let recorder = Recorder<Event<String>>()
        source.signal.flatMap { inners[$0].signal }.record(into: recorder)
        source.send(0)
        source.send(1)
        inners[0].send("a")
        source.sendComplete()
        inners[1].send("b")
        inners[0].sendComplete()
        #expect(recorder.values == [.value("a"), .value("b")])
        inners[1].sendComplete()
        #expect(recorder.values == [.value("a"), .value("b"), .complete])
    }

    // Synchronous inners (just, a map over just) attach without a subscriber of their own and free their member
    // slot before it is stored; later inners reuse those slots.
    @Test("flatMap mixing synchronous and pending inners completes once every one has")
    func flattenMapMixedInners() {
        let source = ManualSource<Int, TestError>()
        let pending = [ManualSource<String, TestError>(), ManualSource<String, TestError>()]
        let recorder = Recorder<Event<String>>()
        source.signal.flatMap { index -> Signal<String, TestError> in
            switch index {
            case 0: pending[0].signal
            case 1: .just("x")
            case 2: Signal.just(2).map { "y\($0)" }
            default: pending[1].signal
            }
        }.record(into: recorder)
        for index in 0...3 { source.send(index) }
        source.sendComplete()
        pending[0].sendComplete()
        pending[1].send("z")
        #expect(recorder.values == [.value("x"), .value("y2"), .value("z")])
        pending[1].sendComplete()
        #expect(recorder.values == [.value("x"), .value("y2"), .value("z"), .complete])
        #expect(pending[0].disposals == 1)
        #expect(pending[1].disposals == 1)
    }

    // A `just` inner is delivered inline (no member of the completion group): the result still completes with the
    // source, and a value the source sends after disposal reaches nobody.
    @Test("flatMap over just inners: values in order, completes with the source, nothing after disposal")
    func flattenMapJustInners() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        let disposer = source.signal.flatMap { Signal.just($0 * 10) }.record(into: recorder)
        source.send(1)
        source.send(2)
        #expect(recorder.values == [.value(10), .value(20)])
        source.sendComplete()
        #expect(recorder.values == [.value(10), .value(20), .complete])

        let other = ManualSource<Int, TestError>()
        let late = Recorder<Event<Int>>()
        let otherDisposer = other.signal.flatMap { Signal.just($0) }.record(into: late)
        other.send(1)
        otherDisposer.dispose()
        other.send(2)
        #expect(late.values == [.value(1)])
        #expect(other.disposals == 1)
        disposer.dispose()
    }

    @Test("disposing a flatMap disposes its pending inners once; a late inner completion does nothing")
    func flattenMapDisposeThenLateCompletion() {
        let source = ManualSource<Int, TestError>()
        let inner = ManualSource<String, TestError>()
        let recorder = Recorder<Event<String>>()
        let disposer = source.signal.flatMap { index -> Signal<String, TestError> in
            index == 0 ? inner.signal : .just("x")
        }.record(into: recorder)
        source.send(1)
        source.send(0)
        disposer.dispose()
        #expect(inner.disposals == 1)
        #expect(source.disposals == 1)
        inner.sendComplete()
        inner.send("late")
        #expect(recorder.values == [.value("x")])
    }

    @Test("flatMap: an inner error disposes the source and the other inners")
    func flattenMapError() {
        let source = ManualSource<Int, TestError>()
        let inners = [ManualSource<String, TestError>(), ManualSource<String, TestError>()]
        let recorder = Recorder<Event<String>>()
        source.signal.flatMap { inners[$0].signal }.record(into: recorder)
        source.send(0)
        source.send(1)
        inners[1].sendError(TestError(6))
        #expect(recorder.values == [.error(6)])
        #expect(source.disposals == 1)
        #expect(inners[0].disposals == 1)
    }

    @Test("finally: after the downstream callback, also on dispose, exactly once")
    func finallyOrdering() {
        let log = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        let disposer = source.signal
            .finally { log.record("finally 1") }
            .map { $0 }
            .finally { log.record("finally 2") }
            .subscribe(value: { log.record("value \($0)") }, error: { _ in }, complete: { log.record("complete") })
        source.send(1)
        source.sendComplete()
        disposer.dispose()
        #expect(log.values == ["value 1", "complete", "finally 2", "finally 1"])

        log.reset()
        let other = ManualSource<Int, TestError>()
        let disposed = other.signal.finally { log.record("finally") }.subscribe(value: { _ in }, error: { _ in })
        #expect(log.values.isEmpty)
        disposed.dispose()
        disposed.dispose()
        #expect(log.values == ["finally"])
    }

    @Test("zip pairs values by position; combineLatest combines the latest values")
    func zipVersusCombineLatest() {
        let left = ManualSource<Int, TestError>()
        let right = ManualSource<String, TestError>()
        let zipped = Recorder<String>()
        let combined = Recorder<String>()
        let kept3 = CancelBag()
        left.signal.zip(right.signal).subscribe(value: { zipped.record("\($0.0)\($0.1)") },
                                                error: { _ in }, complete: { zipped.record("complete") }).store(in: kept3)
        let kept4 = CancelBag()
        left.signal.combineLatest(right.signal).subscribe(value: { combined.record("\($0.0)\($0.1)") },
                                                          error: { _ in }, complete: { combined.record("complete") }).store(in: kept4)
        left.send(1)
        left.send(2)
        right.send("a")
        right.send("b")
        right.send("c")
        left.send(3)
        left.sendComplete()
        #expect(zipped.values == ["1a", "2b", "3c", "complete"])
        #expect(combined.values == ["2a", "2b", "2c", "3c"])
        right.sendComplete()
        #expect(combined.values == ["2a", "2b", "2c", "3c", "complete"])
    }

    @Test("zip of three signals gives a typed triple")
    func zipThree() {
        let recorder = Recorder<String>()
        let kept5 = CancelBag()
        sequence([1, 2]).zip(sequence(["a", "b", "c"]), sequence([true]))
            .subscribe(value: { triple in recorder.record("\(triple.0)\(triple.1)\(triple.2)") },
                       error: { _ in }, complete: { recorder.record("complete") }).store(in: kept5)
        #expect(recorder.values == ["1atrue", "complete"])
    }

    // zip keeps one typed queue per input: values of different types and sizes queue up in order and come back
    // intact, and what is still queued is released with the subscription.
    @Test("zip queues typed values per input, in order, and releases the queued ones with the subscription")
    func zipTypedQueues() {
        final class Box: Sendable {
            let id: Int
            init(_ id: Int) { self.id = id }
        }
        let numbers = ManualSource<Int8, TestError>()
        let texts = ManualSource<String, TestError>()
        let boxes = ManualSource<Box, TestError>()
        let recorder = Recorder<String>()
        weak var weakQueued: Box?
        do {
            let zipped: Signal<(Int8, String, Box), TestError> = numbers.signal.zip(texts.signal, boxes.signal)
            let disposer = zipped.subscribe(value: { recorder.record("\($0.0) \($0.1) \($0.2.id)") }, error: { _ in })
            boxes.send(Box(1))
            let queued = Box(2)
            weakQueued = queued
            boxes.send(queued)
            texts.send(String(repeating: "long ", count: 6))
            texts.send("b")
            numbers.send(-1)
            #expect(recorder.values == ["-1 \(String(repeating: "long ", count: 6)) 1"])
            numbers.send(2)
            numbers.send(3)
            #expect(recorder.values == ["-1 \(String(repeating: "long ", count: 6)) 1", "2 b 2"])
            let late = Box(3)
            weakQueued = late
            boxes.send(late)
            #expect(recorder.count == 2)
            disposer.dispose()
        }
        numbers.forgetSubscribers()
        texts.forgetSubscribers()
        boxes.forgetSubscribers()
        #expect(weakQueued == nil)
    }

    // Each input's queue is a ring buffer that starts with room for 4 values: it must grow while wrapped around,
    // keep its order, and release what is left in it, wrapped or not.
    @Test("zip's queues grow and wrap around in order, and release what they still hold")
    func zipQueueGrowthAndWrap() {
        final class Box: Sendable {
            let id: Int
            init(_ id: Int) { self.id = id }
        }
        let left = ManualSource<Box, TestError>()
        let right = ManualSource<Int, TestError>()
        let pairs = Recorder<String>()
        weak var weakLast: Box?
        do {
            let disposer = left.signal.zip(right.signal).subscribe(value: { pairs.record("\($0.0.id)-\($0.1)") }, error: { _ in })
            for id in 0..<3 { left.send(Box(id)) }
            for value in 0..<2 { right.send(value) }   // head moves to 2, one value left
            for id in 3..<12 { left.send(Box(id)) }    // wraps around, then grows twice
            for value in 2..<9 { right.send(value) }
            let last = Box(12)
            weakLast = last
            left.send(last)
            #expect(pairs.values == (0..<9).map { "\($0)-\($0)" })
            disposer.dispose()
            disposer.dispose()
            #expect(disposer.isDisposed && left.disposals == 1 && right.disposals == 1)
        }
        left.forgetSubscribers()
        right.forgetSubscribers()
        #expect(weakLast == nil)
    }

    // combineLatest stores the latest values in one buffer laid out as the output tuple: elements of different
    // sizes and alignments (and non-trivial ones) must come back intact.
    @Test("combineLatest of mixed types delivers the latest value of each")
    func combineLatestMixedTypes() {
        let a = ManualSource<Int8, TestError>()
        let b = ManualSource<String, TestError>()
        let c = ManualSource<Bool, TestError>()
        let d = ManualSource<Double, TestError>()
        let e = ManualSource<[Int], TestError>()
        let seen = Recorder<String>()
        let combined: Signal<(Int8, String, Bool, Double, [Int]), TestError> =
            a.signal.combineLatest(b.signal, c.signal, d.signal, e.signal)
        let kept6 = CancelBag()
        combined.subscribe(value: { seen.record("\($0.0) \($0.1) \($0.2) \($0.3) \($0.4)") }, error: { _ in }).store(in: kept6)
        a.send(-3)
        b.send("one")
        c.send(true)
        d.send(1.5)
        #expect(seen.values.isEmpty)
        e.send([1, 2])
        b.send(String(repeating: "long ", count: 8))
        a.send(7)
        #expect(seen.values == [
            "-3 one true 1.5 [1, 2]",
            "-3 \(String(repeating: "long ", count: 8)) true 1.5 [1, 2]",
            "7 \(String(repeating: "long ", count: 8)) true 1.5 [1, 2]",
        ])
    }

    @Test("combineLatest releases the values it holds once the subscription is gone, with or without a tuple")
    func combineLatestReleasesValues() {
        final class Box: Sendable {}
        for sendBoth in [false, true] {
            weak var weakLeft: Box?
            weak var weakRight: Box?
            let left = ManualSource<Box, TestError>()
            let right = ManualSource<Box, TestError>()
            do {
                let disposer = left.signal.combineLatest(right.signal).subscribe(value: { _ in }, error: { _ in })
                let first = Box()
                weakLeft = first
                left.send(first)
                if sendBoth {
                    let second = Box()
                    weakRight = second
                    right.send(second)
                }
                disposer.dispose()
            }
            left.forgetSubscribers()
            right.forgetSubscribers()
            #expect(weakLeft == nil)
            #expect(weakRight == nil)
        }
    }

    @Test("four-input combineLatest: mixed types, just inputs, values released once the subscription is gone")
    func combineLatestFourInputs() {
        final class Box: Sendable {}
        let recorder = Recorder<String>()
        let source = ManualSource<Int, TestError>()
        weak var weakBox: Box?
        do {
            let box = Box()
            weakBox = box
            let combined: Signal<(String, Box, Bool, Int), TestError> =
                Signal.just("s").combineLatest(Signal.just(box), Signal.just(true), source.signal)
            let disposer = combined.subscribe(value: { recorder.record("\($0.0) \($0.2) \($0.3)") }, error: { _ in })
            source.send(1)
            source.send(2)
            #expect(recorder.values == ["s true 1", "s true 2"])
            disposer.dispose()
            source.send(3)
            #expect(recorder.values == ["s true 1", "s true 2"])
        }
        source.forgetSubscribers()
        #expect(weakBox == nil)

        // An input that completes without a value completes the result at once; later values are dropped.
        let ended = Recorder<Event<Int>>()
        let other = ManualSource<Int, TestError>()
        let empty: Signal<(Int, Int, Int, Int), TestError> =
            other.signal.combineLatest(Signal.just(1), Signal<Int, TestError>.empty, Signal.just(2))
        empty.map { $0.0 }.record(into: ended)
        other.send(5)
        #expect(ended.values == [.complete])
        #expect(other.disposals == 1)
    }

    // The four-input combineLatest's state is its own disposer: it must end every input once, however often it is
    // disposed, and say so.
    @Test("four-input combineLatest: disposing ends every input once and reports it")
    func combineLatestFourInputsDisposer() {
        let sources = (0..<4).map { _ in ManualSource<Int, TestError>() }
        let recorder = Recorder<Event<Int>>()
        let combined: Signal<(Int, Int, Int, Int), TestError> =
            sources[0].signal.combineLatest(sources[1].signal, sources[2].signal, sources[3].signal)
        let disposer = combined.map { $0.0 + $0.1 + $0.2 + $0.3 }.record(into: recorder)
        for (index, source) in sources.enumerated() { source.send(index) }
        #expect(recorder.values == [.value(6)])
        #expect(!disposer.isDisposed)
        disposer.dispose()
        disposer.dispose()
        #expect(disposer.isDisposed)
        #expect(sources.map(\.disposals) == [1, 1, 1, 1])
        sources[0].send(10)
        #expect(recorder.values == [.value(6)])
    }

    // The four-input combineLatest keeps its slots in one raw buffer: a value stored while other inputs have none
    // yet, and one replaced by a newer value, must both be released.
    @Test("four-input combineLatest releases stored and replaced values, with or without a tuple")
    func combineLatestFourInputsReleasesValues() {
        final class Box: Sendable {}
        weak var weakReplaced: Box?
        weak var weakStored: Box?
        let boxes = ManualSource<Box, TestError>()
        let flags = ManualSource<Bool, TestError>()
        do {
            let combined: Signal<(Int8, Box, Bool, String), TestError> =
                Signal.just(1).combineLatest(boxes.signal, flags.signal, Signal.just("s"))
            let disposer = combined.subscribe(value: { _ in }, error: { _ in })
            do {
                let replaced = Box()
                weakReplaced = replaced
                boxes.send(replaced)
            }
            let stored = Box()
            weakStored = stored
            boxes.send(stored)
            #expect(weakReplaced == nil)
            disposer.dispose()
        }
        boxes.forgetSubscribers()
        flags.forgetSubscribers()
        #expect(weakStored == nil)
    }

    // The two-input overload has its own specialised state with raw slots: a replaced value must be released at
    // once, a stored one with the subscription.
    @Test("two-input combineLatest releases replaced values at once and stored ones with the subscription")
    func combineLatestTwoInputsReleasesReplaced() {
        final class Box: Sendable {}
        weak var weakReplaced: Box?
        weak var weakStored: Box?
        let boxes = ManualSource<Box, TestError>()
        let pairs = Recorder<Int>()
        do {
            let disposer = boxes.signal.combineLatest(Signal<Int, TestError>.just(4))
                .subscribe(value: { pairs.record($0.1) }, error: { _ in })
            do {
                let replaced = Box()
                weakReplaced = replaced
                boxes.send(replaced)
            }
            let stored = Box()
            weakStored = stored
            boxes.send(stored)
            #expect(weakReplaced == nil)
            #expect(pairs.values == [4, 4])
            disposer.dispose()
        }
        boxes.forgetSubscribers()
        #expect(weakStored == nil)
    }

    @Test("combineLatest completes at once when an input completes without a value")
    func combineLatestEmptyInput() {
        let recorder = Recorder<Event<Int>>()
        let combined: Signal<(Int, Int), TestError> = sequence([1]).combineLatest(Signal<Int, TestError>.empty)
        combined.map { $0.0 + $0.1 }.record(into: recorder)
        #expect(recorder.values == [.complete])
    }

    @Test("zip and combineLatest forward the first error")
    func combiningErrors() {
        let recorder = Recorder<Event<Int>>()
        sequence([1]).zip(Signal<Int, TestError>.fail(TestError(2))).map { $0.0 }.record(into: recorder)
        #expect(recorder.values == [.error(2)])
        recorder.reset()
        Signal<Int, TestError>.fail(TestError(3)).combineLatest(sequence([1])).map { $0.0 }.record(into: recorder)
        #expect(recorder.values == [.error(3)])
    }
}
