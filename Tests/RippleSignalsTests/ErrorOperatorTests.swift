import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

struct OtherError: Error, Equatable {
    let code: Int
}

@Suite("Error operators (marbles: one character per virtual second)")
struct ErrorOperatorTests {
    @Test("catch: on error, continues with the replacement; the source is disposed when it fails")
    func catchReplaces() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-a-#", on: scheduler)
        let replacement = MarbleSource("-x|", on: scheduler)
        let result = source.signal.catch { _ in replacement.signal }
        #expect(marbles(of: result, on: scheduler) == "-a--x|")
        #expect(source.disposedAt == [3])
        #expect(replacement.subscribedAt == [3])
        #expect(replacement.disposedAt == [5])
    }

    @Test("catch: completion passes through; the replacement is never subscribed")
    func catchCompletion() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-a|", on: scheduler)
        let replacement = MarbleSource("x|", on: scheduler)
        #expect(marbles(of: source.signal.catch { _ in replacement.signal }, on: scheduler) == "-a|")
        #expect(replacement.subscribedAt.isEmpty)
    }

    @Test("catch: the replacement's error ends the result, with the replacement's failure type")
    func catchReplacementFails() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a#", on: scheduler)
        let recorder = Recorder<String>()
        let kept = CancelBag()
        source.signal.catch { error in Signal<String, OtherError>.fail(OtherError(code: error.code + 1)) }
            .subscribe(value: { recorder.record($0) }, error: { recorder.record("error \($0.code)") }).store(in: kept)
        scheduler.run()
        #expect(recorder.values == ["a", "error 2"])
    }

    @Test("catch: disposing during the replacement disposes it; disposing before the error never subscribes it")
    func catchDisposal() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-#", on: scheduler)
        let replacement = MarbleSource("-x-y|", on: scheduler)
        #expect(marbles(of: source.signal.catch { _ in replacement.signal }, on: scheduler, disposingAt: 3) == "--x")
        #expect(replacement.disposedAt == [3])

        let early = MarbleSource("--#", on: scheduler)
        let unused = MarbleSource("x|", on: scheduler)
        #expect(marbles(of: early.signal.catch { _ in unused.signal }, on: scheduler, disposingAt: 1) == "")
        #expect(unused.subscribedAt.isEmpty)
        #expect(early.disposedAt.count == 1)
    }

    @Test("replaceError(with:): an error becomes one last value and completion")
    func replaceError() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-a-#", on: scheduler)
        #expect(marbles(of: source.signal.replaceError(with: "z"), on: scheduler) == "-a-(z|)")
        let completing = MarbleSource("-a|", on: scheduler)
        #expect(marbles(of: completing.signal.replaceError(with: "z"), on: scheduler) == "-a|")
    }

    @Test("replaceError(with:) inside a map/filter chain: the filters below test the replacement")
    func replaceErrorFused() {
        let recorder = Recorder<Event<Int>>()
        Signal<Int, TestError> { subscriber in
            subscriber.send(1)
            subscriber.sendError(TestError(1))
            return .empty
        }.map { $0 * 10 }.replaceError(with: -1).filter { $0 > 0 }.record(into: recorder)
        #expect(recorder.values == [.value(10), .complete])
    }

    @Test("mapError: the error is transformed; values and completion pass through")
    func mapError() {
        let scheduler = TestScheduler()
        let source = MarbleSource("-a-#", on: scheduler)
        let recorder = Recorder<String>()
        let kept2 = CancelBag()
        source.signal.mapError { OtherError(code: $0.code + 40) }
            .subscribe(value: { recorder.record("\($0)@\(scheduler.seconds)") },
                       error: { recorder.record("error \($0.code)@\(scheduler.seconds)") }).store(in: kept2)
        scheduler.run()
        #expect(recorder.values == ["a@1", "error 41@3"])
        #expect(marbles(of: MarbleSource("a|", on: scheduler).signal.mapError { $0 }, on: scheduler) == "a|")
    }

    @Test("setFailureType(to:): values and completion unchanged; a just stays a just")
    func setFailureType() {
        let scheduler = TestScheduler()
        let never = Signal<String, Never> { subscriber in
            scheduler.schedule(after: .seconds(1)) { subscriber.send("a") }
            scheduler.schedule(after: .seconds(2)) { subscriber.sendComplete() }
            return .empty
        }
        #expect(marbles(of: never.setFailureType(to: TestError.self), on: scheduler) == "-a|")
        #expect(Signal<Int, Never>.just(3).setFailureType(to: TestError.self).justValue == 3)
    }

    @Test("retry works with catch: retried attempts first, then the replacement")
    func retryThenCatch() {
        let scheduler = TestScheduler()
        let source = MarbleSource("a#", on: scheduler)
        let result = source.signal.retry(1).catch { _ in .just("z") }
        #expect(marbles(of: result, on: scheduler) == "aa(z|)")
        #expect(source.subscribedAt == [0, 1])
    }

    @Test("flatMap mixes failure types as Combine does: Never source with failing inner, and the reverse")
    func flatMapFailureTypes() {
        let never = Signal<Int, Never>.just(1)
        let failing: Signal<Int, TestError> = never.flatMap { value in
            value > 0 ? Signal<Int, TestError>.fail(TestError(value)) : .just(value)
        }
        let recorder = Recorder<Event<Int>>()
        failing.record(into: recorder)
        #expect(recorder.values == [.error(1)])

        let source = ManualSource<Int, TestError>()
        let reverse: Signal<Int, TestError> = source.signal.flatMap { Signal<Int, Never>.just($0 * 2) }
        recorder.reset()
        reverse.record(into: recorder)
        source.send(2)
        source.sendError(TestError(5))
        #expect(recorder.values == [.value(4), .error(5)])

        let both: Signal<Int, Never> = never.flatMap { Signal<Int, Never>.just($0 + 1) }
        let plain = Recorder<Event<Int>>()
        both.record(into: plain)
        #expect(plain.values == [.value(2), .complete])
    }

    @Test("retry: disposed while an attempt's action runs (take(1) there), the failing source is not subscribed again")
    func retryStopsOnceDisposedWhileSubscribing() {
        let attempts = Locked(0)
        // Fails synchronously, inside its action: retry's own cleanup is not attached yet when take disposes.
        let failing = Signal<Int, TestError> { subscriber in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            subscriber.send(attempt)
            subscriber.sendError(TestError(attempt))
            return .empty
        }
        let recorder = Recorder<Event<Int>>()
        failing.retry(1_000).take(1).record(into: recorder)
        #expect(recorder.values == [.value(1), .complete])
        #expect(attempts.value == 1)   // was 1,001: every retry ran after the subscription had ended
    }

    @Test("catch: disposed while the source's action runs (take(1) there), the handler is not called")
    func catchSkipsHandlerOnceDisposedWhileSubscribing() {
        let handled = Locked(0)
        let failing = Signal<Int, TestError> { subscriber in
            subscriber.send(1)
            subscriber.sendError(TestError(2))
            return .empty
        }
        let replacement = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        failing.catch { _ in
            handled.withLock { $0 += 1 }
            return replacement.signal
        }.take(1).record(into: recorder)
        #expect(recorder.values == [.value(1), .complete])
        #expect(handled.value == 0)
        #expect(replacement.subscriptions == 0)   // was 1: the replacement (a request, say) started after the end
    }
}
