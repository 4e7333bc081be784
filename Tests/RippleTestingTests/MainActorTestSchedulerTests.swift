import RippleCore
import RippleNodes
import RippleSignals
import RippleTesting
import Testing

/// A `@MainActor` recipient of main-actor deliveries (a view model's stand-in).
@MainActor
final class MainActorInbox {
    var values: [String] = []
    var everyCallOnMainQueue = true

    func receive(_ value: String) {
        everyCallOnMainQueue = everyCallOnMainQueue && MainQueue.isCurrent
        values.append(value)
    }
}

/// What each of several nodes delivered to the main actor.
@MainActor
final class PerSourceInbox {
    var values: [[Int]]

    init(sources: Int) {
        values = Array(repeating: [], count: sources)
    }
}

/// Every test here reads main-actor state right after `advance` and never awaits: no `Task.yield()`, no
/// continuation. A delivery that still went through the main queue would leave the state empty and fail them.
@Suite("TestScheduler.mainActor: main-actor delivery on the virtual clock")
struct MainActorTestSchedulerTests {
    @Test @MainActor func subscribeOnMainActorDeliversInsideAdvance() {
        let scheduler = TestScheduler()
        let inbox = MainActorInbox()
        let source = Signal<String, Never> { subscriber in
            subscriber.send("a")
            subscriber.send("b")
            subscriber.sendComplete()
            return .empty
        }
        let token = source.subscribeOnMainActor(on: scheduler.mainActor, value: { inbox.receive($0) },
                                                complete: { inbox.receive("done") })
        #expect(inbox.values.isEmpty, "delivered through the scheduler, not inline")
        scheduler.advance()
        #expect(inbox.values == ["a", "b", "done"])
        #expect(inbox.everyCallOnMainQueue)
        token.dispose()
    }

    @Test @MainActor func aFailingSignalsErrorArrives() {
        struct Offline: Error {}
        let scheduler = TestScheduler()
        let inbox = MainActorInbox()
        let token = Signal<String, Offline>.fail(Offline())
            .subscribeOnMainActor(on: scheduler.mainActor, value: { inbox.receive($0) },
                                  error: { _ in inbox.receive("offline") })
        scheduler.advance()
        #expect(inbox.values == ["offline"])
        token.dispose()
    }

    @Test @MainActor func oneClockForTimersAndDelivery() {
        // The debounce waits on the scheduler; the delivery goes through its main-actor view: one clock, so the
        // value is on the main actor at exactly 300 ms, not a moment before.
        let scheduler = TestScheduler()
        let inbox = MainActorInbox()
        let typed = ObservableProperty("")
        let token = typed.signal.debounce(.milliseconds(300), on: scheduler)
            .subscribeOnMainActor(on: scheduler.mainActor, value: { inbox.receive("\(scheduler.now): \($0)") })
        typed.value = "r"
        scheduler.advance(by: .milliseconds(100))
        typed.value = "ri"
        scheduler.advance(by: .milliseconds(299))
        #expect(inbox.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(inbox.values == ["0.4 seconds: ri"])
        token.dispose()
    }

    @Test @MainActor func nodeListenersDeliverInsideAdvanceInSettingOrder() {
        let scheduler = TestScheduler()
        let inbox = MainActorInbox()
        let bag = CancelBag()
        let node = MutableNode("first")
        node.listened(by: bag).withBlock(on: scheduler.mainActor) { @MainActor value in inbox.receive(value) }
        node.listened(by: bag).withContextBlock(on: scheduler.mainActor) { @MainActor value, context in
            inbox.receive("\(value)/\(context.map { "\($0)" } ?? "nil")")
        }
        node.set("second", context: "typed")
        #expect(inbox.values.isEmpty)
        scheduler.advance()
        #expect(inbox.values == ["first", "first/nil", "second", "second/typed"])
        bag.cancel()
        node.value = "after cancel"
        scheduler.advance()
        #expect(inbox.values.count == 4)
        #expect(inbox.everyCallOnMainQueue)
    }

    @Test @MainActor func deliveriesScheduledFromManyThreadsArriveInOrderPerSource() async {
        // Eight nodes set from eight tasks at once (real threads of the cooperative pool) schedule their deliveries
        // onto the clock concurrently; one advance on the main actor then delivers every value, each node's in
        // setting order.
        let scheduler = TestScheduler()
        let bag = CancelBag()
        let sources = 8
        let count = 500
        let inbox = PerSourceInbox(sources: sources)
        let nodes = (0..<sources).map { _ in MutableNode(0) }
        for (index, node) in nodes.enumerated() {
            node.listened(by: bag).withBlock(on: scheduler.mainActor) { @MainActor value in
                inbox.values[index].append(value)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for node in nodes {
                group.addTask {
                    for value in 1...count { node.value = value }
                }
            }
        }
        #expect(inbox.values.allSatisfy { $0.isEmpty })
        scheduler.mainActor.advance()
        for values in inbox.values {
            #expect(values == Array(0...count))
        }
        #expect(scheduler.pendingCount == 0)
    }

    @Test @MainActor func cancellingADueDeliveryDropsIt() {
        let scheduler = TestScheduler()
        let main = scheduler.mainActor
        let inbox = MainActorInbox()
        let kept = main.scheduleOnMainActor { inbox.receive("kept") }
        let dropped = main.scheduleOnMainActor { inbox.receive("dropped") }
        dropped.cancel()
        main.advance()
        #expect(inbox.values == ["kept"])
        #expect(scheduler.pendingCount == 0)
        _ = kept
    }

    @Test func advancingOffTheMainActorStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.mainActor.schedule {}
            scheduler.advance()   // a plain (non-isolated) test: not on the main actor
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.mainActor has main-actor work due, but the clock was advanced off "
            + "the main actor"))
    }
}
