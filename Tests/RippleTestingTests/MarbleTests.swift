import RippleCore
import RippleNodes
import RippleSignals
import RippleTesting
import Testing

struct Timeout: Error, Equatable {}

@Suite("Hot and cold sources, start(created:subscribed:disposed:)")
struct MarbleTests {
    @Test func hotSignalPlaysAtItsOwnTimesWhoeverListens() {
        let scheduler = TestScheduler()
        let source = scheduler.hotSignal(
            [.value(.seconds(150), 1), .value(.seconds(210), 2), .value(.seconds(240), 3), .completed(.seconds(300))])
        let recorder = scheduler.start { source.signal.map { $0 * 10 } }
        // 150 fell before the subscription at 200: a hot source does not replay it.
        #expect(recorder.events == [.value(.seconds(210), 20), .value(.seconds(240), 30), .completed(.seconds(300))])
        #expect(source.subscriptions == [TestSubscription(.seconds(200), .seconds(300))])
    }

    @Test func coldSignalPlaysTheWholeSequenceFromEachSubscription() {
        let scheduler = TestScheduler()
        let source = scheduler.coldSignal([.value(.seconds(10), 1), .value(.seconds(40), 2), .completed(.seconds(100))])
        let recorder = scheduler.start { source.signal.map { $0 * 10 } }
        #expect(recorder.events == [.value(.seconds(210), 10), .value(.seconds(240), 20), .completed(.seconds(300))])

        // A second subscriber, later, hears the same sequence shifted to its own start.
        let late = Recorder<Int>(scheduler: scheduler)
        let lateSubscription = source.signal.subscribe(late)
        scheduler.advance(by: .seconds(40))
        #expect(late.events == [.value(.seconds(1010), 1), .value(.seconds(1040), 2)])
        #expect(source.subscriptions == [TestSubscription(.seconds(200), .seconds(300)),
                                         TestSubscription(.seconds(1000))])
        #expect(!lateSubscription.isDisposed)
    }

    @Test func hotAndColdDifferForTheSameEventsAndSubscribers() {
        let events: [Recorded<String>] = [.value(.seconds(1), "a"), .value(.seconds(3), "b")]
        let hotScheduler = TestScheduler(), coldScheduler = TestScheduler()
        let hot = hotScheduler.hotSignal(events), cold = coldScheduler.coldSignal(events)
        let hotRecorder = Recorder<String>(scheduler: hotScheduler)
        let coldRecorder = Recorder<String>(scheduler: coldScheduler)
        let subscriptions = CancelBag()
        hotScheduler.schedule(after: .seconds(2)) { hot.signal.subscribe(hotRecorder).store(in: subscriptions) }
        coldScheduler.schedule(after: .seconds(2)) { cold.signal.subscribe(coldRecorder).store(in: subscriptions) }
        hotScheduler.advance(by: .seconds(10))
        coldScheduler.advance(by: .seconds(10))
        #expect(hotRecorder.events == [.value(.seconds(3), "b")])
        #expect(coldRecorder.events == [.value(.seconds(3), "a"), .value(.seconds(5), "b")])
    }

    @Test func disposingAtTheEndOfStartStopsAColdSourceAndLogsIt() {
        let scheduler = TestScheduler()
        let source = scheduler.coldSignal([.value(.seconds(500), 1), .value(.seconds(900), 2)])
        let recorder = scheduler.start { source.signal }
        #expect(recorder.events == [.value(.seconds(700), 1)])
        #expect(source.subscriptions == [TestSubscription(.seconds(200), .seconds(1000))])
        #expect(scheduler.pendingCount == 0)   // the value due at 1100 was cancelled with the subscription
    }

    @Test func typedFailuresAreRecordedAndCompared() {
        let scheduler = TestScheduler()
        let source = scheduler.hotSignal([.value(.seconds(250), 1), .failed(.seconds(260), Timeout())],
                                         failure: Timeout.self)
        let recorder = scheduler.start { source.signal }
        #expect(recorder.events == [.value(.seconds(250), 1), .failed(.seconds(260), Timeout())])
        #expect(recorder.values == [1])
    }

    @Test func hotNodeUnderDebounce() {
        let scheduler = TestScheduler()
        let input = scheduler.hotNode(
            [.value(.seconds(210), "h"), .value(.seconds(211), "he"), .value(.seconds(220), "hey")], initial: "")
        let recorder = scheduler.start { input.debounce(.seconds(5), on: scheduler) }
        // Created at 100 holding "": debounced to 105, before the listener at 200 hears it as the current value.
        #expect(recorder.events == [.value(.seconds(200), ""), .value(.seconds(216), "he"),
                                    .value(.seconds(225), "hey")])
    }

    @Test func nodeStartStopsListeningAtDisposed() {
        let scheduler = TestScheduler()
        let input = scheduler.hotNode([.value(.seconds(300), 1), .value(.seconds(2000), 2)])
        let recorder = scheduler.start(disposed: .seconds(1500)) { input.map { $0 + 1 } }
        scheduler.advance(to: .seconds(3000))
        #expect(recorder.events == [.value(.seconds(300), 2)])
    }

    @Test func aWrongSequenceFailsWithAReadableDiff() {
        let scheduler = TestScheduler()
        let source = scheduler.hotSignal([.value(.seconds(210), 1), .value(.seconds(220), 2), .completed(.seconds(300))])
        let recorder = scheduler.start { source.signal.map { $0 * 10 } }
        #expect(recorder.difference(from: [.value(.seconds(210), 10), .value(.seconds(220), 20),
                                           .completed(.seconds(300))]).isEmpty)
        withKnownIssue("the expected sequence misses value 20 and has the completion late") {
            #expect(recorder.difference(from: [.value(.seconds(210), 10), .completed(.seconds(310))]).isEmpty)
        } matching: { issue in
            // The failure shows the diff, one event a line.
            String(describing: issue).contains("""
                  value(10) @ 210.0 seconds
                + value(20) @ 220.0 seconds
                + completed @ 300.0 seconds
                - completed @ 310.0 seconds
                """)
        }
    }

    @Test func equalityOfWholeSequencesShowsBothSides() {
        let scheduler = TestScheduler()
        let source = scheduler.coldSignal([.value(.seconds(1), "a")])
        let recorder = scheduler.start { source.signal }
        withKnownIssue("values differ") {
            #expect(recorder.events == [.value(.seconds(201), "b")])
        } matching: { issue in
            String(describing: issue).contains(#"value("a") @ 201.0 seconds"#)
                && String(describing: issue).contains(#"value("b") @ 201.0 seconds"#)
        }
    }

    @Test func recordedEventsReadAsMarbles() {
        #expect(Recorded<Int>.value(.seconds(210), 2).description == "value(2) @ 210.0 seconds")
        #expect(Recorded<String>.value(.zero, "a").description == #"value("a") @ 0.0 seconds"#)
        #expect(Recorded<Int>.completed(.seconds(3)).description == "completed @ 3.0 seconds")
        #expect(Recorded<Int>.failed(.seconds(3), Timeout()).description.hasPrefix("failed("))
        #expect(Recorded<Int>.failed(.seconds(3), Timeout()) != .completed(.seconds(3)))
        #expect(TestSubscription(.seconds(200)).description == "200.0 seconds – …")
    }
}

@Suite("RippleTesting's programmer errors")
struct RippleTestingProgrammerErrorTests {
    @Test func runLimitBelowOneNamesTheAPIAndTheValue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().runLimit = 0
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.runLimit needs a count ≥ 1, got 0"))
    }

    @Test func aFailureOfTheWrongTypeIsRefusedWhenTheSourceIsMade() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Other: Error {}
            _ = TestScheduler().coldSignal([Recorded<Int>.failed(.seconds(1), Other())], failure: Timeout.self)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.coldSignal(_:failure:) got a failure of type Other"))
    }

    @Test func aNodeSourceRefusesACompletion() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestScheduler().hotNode([Recorded<Int>.value(.seconds(1), 1), .completed(.seconds(2))])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.hotNode(_:initial:) got completed @ 2.0 seconds"))
    }

    @Test func startRefusesTimesInThePast() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler(now: .seconds(500))
            _ = scheduler.start { Signal<Int, Never> { _ in .empty } }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.start(created:subscribed:disposed:_:) needs created ≤ subscribed"))
        #expect(message.contains("created is 100.0 seconds"))
    }
}
