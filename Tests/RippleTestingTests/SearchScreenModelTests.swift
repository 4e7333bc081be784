import RippleCore
import RippleSignals
import RippleTesting
import Testing

/// A search service on the virtual clock: each request answers after `latency`; it logs when each request starts
/// and when one is cancelled before answering, and fails its first `failures` attempts.
final class FakeSearchService: Sendable {
    let log = Recorder<String>()
    private let scheduler: TestScheduler
    private let latency: Duration
    private let attempts = Recorder<Int>()
    private let failures: Int

    init(scheduler: TestScheduler, latency: Duration = .milliseconds(200), failures: Int = 0) {
        self.scheduler = scheduler
        self.latency = latency
        self.failures = failures
    }

    struct Unreachable: Error {}

    func search(_ text: String) -> Signal<[String], any Error> {
        Signal { [self] subscriber in
            log.record("start \(text) @\(scheduler.now)")
            attempts.record(1)
            let fails = attempts.values.count <= failures
            let answered = Recorder<Bool>()
            let timer = scheduler.schedule(after: latency) {
                answered.record(true)
                if fails {
                    subscriber.sendError(Unreachable())
                } else {
                    subscriber.send(["rain", "ripple", "river", "rivet", "swift"].filter { $0.hasPrefix(text) })
                    subscriber.sendComplete()
                }
            }
            return Disposer { [self] in
                guard answered.values.isEmpty else { return }
                timer.cancel()
                log.record("cancel \(text) @\(scheduler.now)")
            }
        }
    }
}

/// The search screen's view model, tested on one virtual clock: the `@MainActor` test reads `model.state` right after
/// `advance` — no `Task.yield()`, no waiting. The fake service and this suite are the article "Testing a main-actor
/// view model" (Ripple.docc) verbatim; the suite after it adds the cases the article leaves out.
@Suite("The search screen's view model, as in the article") @MainActor
struct SearchModelTests {
    @Test func typingQuicklySearchesOnceWithALoadingState() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler)
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        for text in ["r", "ri", "riv"] {                  // typed at 0, 0.1 and 0.2 s
            model.query = text
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.advance(by: .milliseconds(200))        // 300 ms after "riv": one request
        #expect(model.state == .loading)
        scheduler.advance(by: .milliseconds(200))        // its answer
        #expect(model.state == .loaded(["river", "rivet"]))
        #expect(service.log.values == ["start riv @0.5 seconds"])
    }

    @Test func aNewQueryCancelsTheStaleRequest() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, latency: .seconds(1))
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "ri"
        scheduler.advance(by: .milliseconds(500))        // "ri" settled at 0.3 s and is in flight
        model.query = "rai"
        scheduler.advance(by: .milliseconds(300))        // "rai" settles: "ri" is cancelled, not just ignored
        #expect(service.log.values == ["start ri @0.3 seconds", "cancel ri @0.8 seconds", "start rai @0.8 seconds"])
        scheduler.advance(by: .seconds(1))
        #expect(model.state == .loaded(["rain"]))
    }

    @Test func aFailedRequestIsRetriedThenGivesAMessage() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, failures: 3)
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "sw"
        scheduler.advance(by: .seconds(1))
        #expect(service.log.values.count == 3)          // the request and two retries
        #expect(model.state == .failed("The search failed."))
    }

    @Test func aSlowServiceTimesOut() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, latency: .seconds(60))
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "ri"
        scheduler.advance(by: .milliseconds(5_300))
        #expect(model.state == .failed("The search took too long."))
        #expect(service.log.values == ["start ri @0.3 seconds", "cancel ri @5.3 seconds"])
    }

    @Test func theModelIsFreedWithARequestInFlight() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, latency: .seconds(1))
        expectReleased { tracker in
            let model = tracker.track(SearchModel(search: service.search, clock: scheduler,
                                                  delivery: scheduler.mainActor))
            model.query = "ri"
            scheduler.advance(by: .milliseconds(500))
        }
    }
}

/// More of the search screen on one virtual clock: exact instants, a retry that succeeds, a new query after an error.
@Suite("The search screen's view model on TestScheduler.mainActor")
@MainActor
struct SearchScreenModelTests {
    @Test func typingQuicklySearchesOnceWithALoadingState() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler)
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        scheduler.advance(by: .milliseconds(300))        // the empty query settles: nothing to search
        #expect(model.state == .idle)
        for text in ["r", "ri", "riv"] {                  // typed at 0.3, 0.4 and 0.5 s
            model.query = text
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(model.state == .idle)
        scheduler.advance(by: .milliseconds(199))
        #expect(model.state == .idle)
        scheduler.advance(by: .milliseconds(1))          // 300 ms after "riv": one request, and the loading state
        #expect(model.state == .loading)
        scheduler.advance(by: .milliseconds(200))        // the answer
        #expect(model.state == .loaded(["river", "rivet"]))
        #expect(service.log.values == ["start riv @0.8 seconds"])
    }

    @Test func aNewQueryCancelsTheStaleRequest() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, latency: .seconds(1))
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "ri"
        scheduler.advance(by: .milliseconds(500))        // "ri" settled at 300 ms and is in flight
        #expect(model.state == .loading)
        model.query = "rai"
        scheduler.advance(by: .milliseconds(300))        // "rai" settles: "ri" is cancelled, not just ignored
        #expect(service.log.values == ["start ri @0.3 seconds", "cancel ri @0.8 seconds", "start rai @0.8 seconds"])
        #expect(model.state == .loading)
        scheduler.advance(by: .seconds(1))
        #expect(model.state == .loaded(["rain"]))
    }

    @Test func aFailedRequestIsRetried() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, failures: 2)
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "sw"
        scheduler.advance(by: .seconds(1))
        #expect(model.state == .loaded(["swift"]))
        #expect(service.log.values == ["start sw @0.3 seconds", "start sw @0.5 seconds", "start sw @0.7 seconds"])
    }

    @Test func threeFailuresShowAMessage() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, failures: 3)
        let model = SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "sw"
        scheduler.advance(by: .seconds(1))
        #expect(model.state == .failed("The search failed."))
        #expect(service.log.values.count == 3)
    }

    @Test func aSlowServiceTimesOutAndTheNextQueryStillWorks() {
        let scheduler = TestScheduler()
        let slow = FakeSearchService(scheduler: scheduler, latency: .seconds(60))
        let model = SearchModel(search: slow.search, clock: scheduler, delivery: scheduler.mainActor)
        model.query = "ri"
        scheduler.advance(by: .milliseconds(300) + .seconds(5) - .milliseconds(1))
        #expect(model.state == .loading)
        scheduler.advance(by: .milliseconds(1))
        #expect(model.state == .failed("The search took too long."))
        #expect(slow.log.values == ["start ri @0.3 seconds", "cancel ri @5.3 seconds"])
        // The error ended only that query's inner signal: typing again searches again.
        model.query = ""
        scheduler.advance(by: .milliseconds(300))
        #expect(model.state == .idle)
    }

    @Test func theModelIsFreedWhenDropped() {
        let scheduler = TestScheduler()
        let service = FakeSearchService(scheduler: scheduler, latency: .seconds(1))
        expectReleased { tracker in
            let model = tracker.track(
                SearchModel(search: service.search, clock: scheduler, delivery: scheduler.mainActor), "search model")
            model.query = "ri"
            scheduler.advance(by: .milliseconds(500))   // a request in flight when the model goes
            #expect(model.state == .loading)
        }
        scheduler.advance(by: .seconds(2))
        #expect(service.log.values.first == "start ri @0.3 seconds")
    }
}
