// Invariants under test: an assignment made while another is being delivered (from a subscriber's callback, or from
// another thread) reaches every subscriber after the value being delivered, never before it, so every subscriber
// hears the assignments in the order the property took them and ends holding the property's value. (Before, the
// later value could reach a subscriber first and the earlier one then overwrite it: the subscriber ended with a value
// the property no longer had.)
import Dispatch
import RippleCore
import RippleSignals
import RippleTesting
import Testing

@Suite("ObservableProperty: assignments made while another is delivered")
struct ObservablePropertyReentrancyTests {
    @Test("a subscriber that clamps the value: every subscriber hears 11 then 10, and ends with the property's 10")
    func clampFromCallback() {
        let property = ObservableProperty(0)
        let clamper = Recorder<Int>()
        let before = Recorder<Int>()
        let after = Recorder<Int>()
        // One subscriber before the clamping one, one after it: the one after got the clamped 10 first, then 11.
        let disposers = [
            property.signal.subscribe(value: { before.record($0) }),
            property.signal.subscribe(value: { value in
                clamper.record(value)
                if value > 10 { property.value = 10 }
            }),
            property.signal.subscribe(value: { after.record($0) }),
        ]
        property.value = 11
        #expect(property.value == 10)
        #expect(before.values == [0, 11, 10])
        #expect(clamper.values == [0, 11, 10])
        #expect(after.values == [0, 11, 10])
        disposers.forEach { $0.dispose() }
    }

    @Test("assignments chained through callbacks arrive in assignment order at every subscriber")
    func chainedAssignments() {
        let property = ObservableProperty(0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        // Counting up to 3 from the callback: each assignment is made while the previous one is being delivered.
        let counter = property.signal.subscribe(value: { value in
            first.record(value)
            if value > 0 && value < 3 { property.value = value + 1 }
        })
        let listener = property.signal.subscribe(value: { second.record($0) })
        property.value = 1
        #expect(first.values == [0, 1, 2, 3])
        #expect(second.values == [0, 1, 2, 3])
        #expect(property.value == 3)
        counter.dispose()
        listener.dispose()
    }

    @Test("a subscriber added from a callback hears the current value, then only later assignments, once each")
    func subscribeFromCallback() {
        let property = ObservableProperty(0)
        let late = Recorder<Int>()
        let lateHandle = Locked<Disposer?>(nil)
        let early = property.signal.subscribe(value: { value in
            guard value == 1 else { return }
            lateHandle.withLock { $0 = property.signal.subscribe(value: { late.record($0) }) }
            property.value = 2
        })
        property.value = 1
        property.value = 3
        #expect(late.values == [1, 2, 3])
        early.dispose()
        lateHandle.withLock { $0 }?.dispose()
    }

    @Test("two threads assigning at once: every subscriber ends each round holding the property's value",
          .tags(.stress))
    func concurrentAssignments() {
        let property = ObservableProperty(0)
        // Several subscribers widen the window in which one thread's delivery loop overlaps the other's.
        let latest = (0..<8).map { _ in Locked(0) }
        let disposers = latest.map { last in property.signal.subscribe(value: { value in last.withLock { $0 = value } }) }
        let stale = Locked(0)
        let round = Locked(0)
        LockstepBarrier.race(rounds: 5_000, first: {
            property.value = round.withLock { 2 * $0 + 1 }
        }, second: {
            property.value = round.withLock { 2 * $0 + 2 }
        }, check: {
            let value = property.value
            if latest.contains(where: { $0.withLock { $0 } != value }) { stale.withLock { $0 += 1 } }
            round.withLock { $0 += 1 }
        })
        #expect(stale.withLock { $0 } == 0)
        disposers.forEach { $0.dispose() }
    }
}
