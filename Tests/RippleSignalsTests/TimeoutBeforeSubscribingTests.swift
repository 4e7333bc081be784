// Invariants under test: a `timeout` that has already fired when its source would be subscribed (an immediate
// scheduler runs the timer at once; a queue scheduler's thread can fire a tiny one first) ends the result without
// subscribing the source: the source (a request, say) never starts after the end, as `catch`, `retry` and `prepend`
// already guarantee. (It was subscribed anyway, then disposed at once.)
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("timeout: fired before the source is subscribed")
struct TimeoutBeforeSubscribingTests {
    @Test("on an immediate scheduler the result completes at once and the source is never subscribed")
    func completesWithoutSubscribing() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        source.signal.timeout(.seconds(1), on: .immediate).record(into: recorder)
        #expect(recorder.values == [.complete])
        #expect(source.subscriptions == 0)  // was 1: subscribed after the result had completed
    }

    @Test("with a custom error it fails at once, and the source is never subscribed")
    func failsWithoutSubscribing() {
        let source = ManualSource<Int, TestError>()
        let recorder = Recorder<Event<Int>>()
        source.signal.timeout(.seconds(1), on: .immediate, customError: { TestError(4) }).record(into: recorder)
        #expect(recorder.values == [.error(4)])
        #expect(source.subscriptions == 0)
    }
}
