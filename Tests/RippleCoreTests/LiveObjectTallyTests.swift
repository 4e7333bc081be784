import Dispatch
import RippleCore
import Testing

// Module-level, as the rooms keep theirs: a tally is noncopyable and its reader must read this same storage.
let tallyProbe = LiveObjectTally()
let racedTallyProbe = LiveObjectTally()
let tallyRegistrations = Locked(0)

@inline(never)
func registerTallyProbe() {
    tallyProbe.register("LiveObjectTallyTests.Probe") { tallyProbe.count }
}

@inline(never)
func registerRacedTallyProbe() {
    tallyRegistrations.withLock { $0 += 1 }
    racedTallyProbe.register("LiveObjectTallyTests.Raced") { racedTallyProbe.count }
}

@Suite("LiveObjectTally: statically laid out live-object counts")
struct LiveObjectTallyTests {
    @Test func absentUntilTheFirstObjectThenCounted() {
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Probe"] == nil)
        tallyProbe.increment(registering: registerTallyProbe)
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Probe"] == 1)
        tallyProbe.increment(registering: registerTallyProbe)
        tallyProbe.decrement()
        #expect(tallyProbe.count == 1)
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Probe"] == 1)
        tallyProbe.decrement()
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Probe"] == 0)
    }

    /// Threads racing to count the first object: the kind is registered once, every count lands, and a thread that
    /// has counted always finds its kind in the diagnostics.
    @Test func registeredOnceUnderRacingFirstIncrements() {
        let seenAbsent = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 {
                racedTallyProbe.increment(registering: registerRacedTallyProbe)
                if RippleDiagnostics.liveObjects["LiveObjectTallyTests.Raced"] == nil {
                    seenAbsent.withLock { $0 += 1 }
                }
            }
        }
        #expect(seenAbsent.value == 0)
        #expect(racedTallyProbe.count == 16_000)
        // Registered twice, the kind would be summed twice (`liveObjects` adds entries of one name).
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Raced"] == 16_000)
        #expect(tallyRegistrations.value >= 1)
        for _ in 0..<16_000 { racedTallyProbe.decrement() }
        #expect(RippleDiagnostics.liveObjects["LiveObjectTallyTests.Raced"] == 0)
    }
}
