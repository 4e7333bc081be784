import Ripple
import RippleTesting
import Testing

/// Issue 19's first example: a search box's node (a source that cannot fail) feeding a fetch that can.
@Suite("Signals: fetching from a node")
struct SignalsFetchFromNodeTests {
    struct FetchError: Error, Equatable {
        let query: String
    }

    /// A fetch that answers after `latency` seconds of virtual time and fails for an empty query.
    static func fetch(_ query: String, on scheduler: TestScheduler, latency: Int) -> Signal<String, FetchError> {
        Signal { subscriber in
            let work = scheduler.schedule(after: .seconds(latency)) {
                if query.isEmpty {
                    subscriber.sendError(FetchError(query: query))
                } else {
                    subscriber.send("results for \(query)")
                    subscriber.sendComplete()
                }
            }
            return Disposer { work.cancel() }
        }
    }

    @Test("node.signal.flatMap { query in fetch(query) } compiles, merges the results and fails with the fetch's error")
    func flatMapFetch() {
        let scheduler = TestScheduler()
        let query = MutableNode("a")
        let results = Recorder<String>()
        let disposer = query.signal.flatMap { query in Self.fetch(query, on: scheduler, latency: 1) }
            .subscribe(value: { results.record($0) }, error: { results.record("failed: \($0.query.isEmpty)") })
        query.value = "ab"
        scheduler.advance(by: .seconds(1))
        #expect(results.values == ["results for a", "results for ab"])
        query.value = ""
        scheduler.advance(by: .seconds(1))
        #expect(results.values.last == "failed: true")
        disposer.dispose()
    }

    @Test("node.signal.flatMapLatest { fetch($0) }: a slow stale result never arrives after a newer one")
    func flatMapLatestFetch() {
        let scheduler = TestScheduler()
        let query = MutableNode("a")
        let results = Recorder<String>()
        // "a" takes 3 s, "ab" 1 s: merging would deliver "ab" then the stale "a".
        let disposer = query.signal
            .flatMapLatest { query in Self.fetch(query, on: scheduler, latency: query == "a" ? 3 : 1) }
            .subscribe(value: { results.record($0) }, error: { _ in results.record("failed") })
        query.value = "ab"
        scheduler.run()
        #expect(results.values == ["results for ab"])
        disposer.dispose()
    }
}
