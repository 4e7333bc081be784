import Dispatch
import Observation
import RippleCore
import RippleSignals
import RippleTesting
import Testing

/// The usual SwiftUI model: `@MainActor @Observable`.
@MainActor @Observable
final class Basket {
    var count = 0
}

/// A model without an actor, for the exit test (which runs nonisolated).
@Observable
final class PlainBasket: @unchecked Sendable {
    var count = 0
}

@Suite("observe(_:_:on:): @MainActor @Observable models", .timeLimit(.minutes(1)))
struct MainActorObserveTests {
    /// Lets everything already queued on the main queue run (it is FIFO), without sleeping.
    @MainActor
    func drainMainQueue() async {
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
    }

    @Test @MainActor func deliversTheWrittenValueNeverAStaleOne() async {
        let basket = Basket()
        let values = Recorder<Int>()
        let disposer = observe(basket, \.count, on: .main).subscribe(value: { values.record($0) })
        #expect(values.values == [0])
        basket.count = 1
        await drainMainQueue()
        #expect(values.values == [0, 1])
        basket.count = 2
        basket.count = 3
        await drainMainQueue()
        #expect(values.values == [0, 1, 3])  // a synchronous burst arrives as its latest value
        disposer.dispose()
    }

    @Test func immediateStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = observe(PlainBasket(), \.count, on: .immediate)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("observe(_:_:on:) cannot use .immediate: Observation reports a change before"))
    }
}
