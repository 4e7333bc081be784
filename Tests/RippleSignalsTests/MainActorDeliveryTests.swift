import Dispatch
import Foundation
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Issue 18 item 1 for Signals: a `@MainActor` view model updates itself from a signal without
/// `MainActor.assumeIsolated`. That this file compiles in Swift 6 language mode is the compile test.
@MainActor
final class SearchViewModel {
    var results: [String] = []
    var failed = false
    var finished = false
    /// Per value: whether it arrived on the main queue (on Apple platforms, also the main thread).
    var deliveredOnMainThread: [Bool] = []
    var subscription: Disposer?

    func bind(_ signal: Signal<String, TestError>, arrived: @escaping @Sendable () -> Void) {
        subscription = signal.subscribeOnMainActor(
            value: { [weak self] result in
                guard let self else { return }
                results.append(result)   // main-actor state, touched directly
                deliveredOnMainThread.append(MainQueue.isCurrent)
                arrived()
            },
            error: { [weak self] _ in
                self?.failed = true
                arrived()
            },
            complete: { [weak self] in
                self?.finished = true
                arrived()
            })
    }
}


@Suite("Main-actor delivery")
struct MainActorDeliveryTests {
    @Test("subscribeOnMainActor runs @MainActor callbacks on the main thread, in order, for values sent from other threads")
    @MainActor
    func runsOnMainThread() async {
        let model = SearchViewModel()
        let subscriber = Locked<SignalSubscriber<String, TestError>?>(nil)
        let signal = Signal<String, TestError> { incoming in
            subscriber.withLock { $0 = incoming }
            return .empty
        }
        let (events, continuation) = AsyncStream<Void>.makeStream()
        model.bind(signal) { continuation.yield() }
        let producer = subscriber.withLock { $0 }!
        DispatchQueue.global().async {
            producer.send("a")
            producer.send("b")
            producer.sendComplete()
        }
        var iterator = events.makeAsyncIterator()
        for _ in 0..<3 { await iterator.next() }
        #expect(model.results == ["a", "b"])
        #expect(model.finished)
        #expect(model.deliveredOnMainThread == [true, true])
    }

    @Test("subscribeOnMainActor forwards an error to the @MainActor error callback")
    @MainActor
    func error() async {
        let model = SearchViewModel()
        let (events, continuation) = AsyncStream<Void>.makeStream()
        model.bind(.fail(TestError(2))) { continuation.yield() }
        var iterator = events.makeAsyncIterator()
        await iterator.next()
        #expect(model.failed)
        #expect(model.results.isEmpty)
    }
}
