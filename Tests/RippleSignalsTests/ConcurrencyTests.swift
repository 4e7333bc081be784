import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("Swift concurrency: values and Signal(AsyncSequence)")
struct ConcurrencyTests {
    @Test("for await over a signal that cannot fail")
    func valuesNever() async {
        let signal = Signal<Int, Never> { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.sendComplete()
            return .empty
        }
        var received: [Int] = []
        for await value in signal.values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test("for try await throws the typed failure after the buffered values")
    func valuesTypedFailure() async {
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.send(7)
            subscriber.send(8)
            subscriber.sendError(TestError(5))
            return .empty
        }
        var received: [Int] = []
        do throws(TestError) {
            for try await value in signal.values(bufferingPolicy: .bufferingOldest(1)) {
                received.append(value)
            }
            Issue.record("expected an error")
        } catch {
            #expect(error == TestError(5))
        }
        // The buffer kept the oldest value only; the error still arrived.
        #expect(received == [7])
    }

    @Test("bufferingNewest keeps the latest values")
    func valuesBufferingNewest() async throws {
        var received: [Int] = []
        for try await value in sequence([1, 2, 3, 4]).values(bufferingPolicy: .bufferingNewest(2)) {
            received.append(value)
        }
        #expect(received == [3, 4])
    }

    @Test("cancelling the consuming task disposes the subscription")
    func valuesCancellation() async {
        let (disposed, disposedContinuation) = AsyncStream<Void>.makeStream()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let source = ManualSource<Int, Never>()
        let signal = Signal<Int, Never> { subscriber in
            let inner = source.signal.subscribe(value: subscriber.send)
            startedContinuation.yield()
            return Disposer {
                inner.dispose()
                disposedContinuation.yield()
            }
        }
        let consumer = Task {
            var count = 0
            for await _ in signal.values { count += 1 }
            return count
        }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        source.send(1)
        consumer.cancel()
        var disposedIterator = disposed.makeAsyncIterator()
        await disposedIterator.next()
        #expect(source.disposals == 1)
        _ = await consumer.value
    }

    @Test("Signal(sequence) sends the elements, then completes")
    func fromAsyncSequence() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let (events, eventsContinuation) = AsyncStream<String>.makeStream()
        let disposer = Signal(stream).subscribe(value: { eventsContinuation.yield("\($0)") },
                                                complete: { eventsContinuation.yield("complete") })
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        var received: [String] = []
        for await event in events {
            received.append(event)
            if event == "complete" { break }
        }
        #expect(received == ["1", "2", "complete"])
        disposer.dispose()
    }

    @Test("Signal(sequence) forwards a thrown error as the typed failure")
    func fromThrowingSequence() async {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let (events, eventsContinuation) = AsyncStream<String>.makeStream()
        let kept = CancelBag()
        Signal(stream).subscribe(value: { eventsContinuation.yield("\($0)") },
                                 error: { eventsContinuation.yield("error \(($0 as? TestError)?.code ?? -1)") }).store(in: kept)
        continuation.yield(1)
        continuation.finish(throwing: TestError(3))
        var received: [String] = []
        for await event in events {
            received.append(event)
            if event.hasPrefix("error") { break }
        }
        #expect(received == ["1", "error 3"])
    }

    @Test("disposing a Signal(sequence) subscription cancels the driving task")
    func fromAsyncSequenceDispose() async {
        let (terminated, terminatedContinuation) = AsyncStream<Void>.makeStream()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { _ in terminatedContinuation.yield() }
        let (firstValue, firstValueContinuation) = AsyncStream<Int>.makeStream()
        let disposer = Signal(stream).subscribe(value: { firstValueContinuation.yield($0) })
        continuation.yield(1)
        var valueIterator = firstValue.makeAsyncIterator()
        #expect(await valueIterator.next() == 1)
        disposer.dispose()
        var terminatedIterator = terminated.makeAsyncIterator()
        await terminatedIterator.next()
        #expect(disposer.isDisposed)
    }
}
