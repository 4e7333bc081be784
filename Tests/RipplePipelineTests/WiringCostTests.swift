import RippleCore
@testable import RipplePipeline
import RippleTesting
import Testing

/// One port wired into many plumbers: the port rebuilt its route over every wired plumber on each wiring and on each
/// change of one of their chains, so wiring n plumbers, each then given a stage and a handler, cost n² (2,000
/// plumbers: 1.3 s). A change now only takes the route down and the next emit builds it once; the cost is counted
/// (`chainsRouted`: the chains the builds went through), not timed.
@Suite struct WiringCostTests {
    @Test func wiringOnePortIntoManyPlumbersBuildsItsRouteOnce() {
        let count = 2_000
        let port = NumberPort()
        let outputs = Locked(0)
        var plumbers = (0..<count).map { _ in
            Plumber<Number>()
                .addPort(port)
                .addPipeline(Mark("a"))
                .onOutput { packet in if packet.path == ["a"] { outputs.withLock { $0 += 1 } } }
        }
        // Adding the port again wires nothing and builds nothing.
        plumbers[0].addPort(port)
        #expect(port.packetOutlet.chainsRouted == 0)

        #expect(port.emit(Number(1), portNumber: 0))
        #expect(outputs.value == count)
        #expect(port.packetOutlet.chainsRouted == count)
        // Nothing changed: the next emit builds nothing.
        #expect(port.emit(Number(2), portNumber: 0))
        #expect(outputs.value == 2 * count)
        #expect(port.packetOutlet.chainsRouted == count)

        // Half the plumbers go; the next build prunes them, the one after goes through the other half only.
        plumbers.removeLast(count / 2)
        #expect(port.emit(Number(3), portNumber: 0))
        #expect(outputs.value == 2 * count + count / 2)
        #expect(port.packetOutlet.wiredPlumbers.count == count / 2)
        plumbers[0].addPipeline(Mark("b"))
        #expect(port.emit(Number(4), portNumber: 0))
        // The first plumber's packets now leave through "b" too, so its handler does not count them.
        #expect(outputs.value == 3 * count - 1)
        #expect(port.packetOutlet.chainsRouted == 2 * count + count / 2)

        // Every plumber gone: the port is wired to none, and an emit says so.
        plumbers.removeAll()
        #expect(!port.emit(Number(5), portNumber: 0))
        #expect(!port.isWired)
        #expect(port.packetOutlet.wiredPlumbers.isEmpty)
    }

    /// Changes racing with emits on two threads: every emit runs through the chains of a route built after the last
    /// change that finished before it started, and no emit reads "not wired" while a plumber is.
    @Test func changesRacingWithEmitsNeverLoseAWiredPlumber() async {
        let port = NumberPort()
        let outputs = Locked(0)
        let plumber = Plumber<Number>().addPort(port).onOutput { _ in outputs.withLock { $0 += 1 } }
        let rounds = 1_000
        let missed = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<rounds {
                    if round.isMultiple(of: 2) {
                        plumber.addPipeline(ClosureStage<Number>("pass") { packet, next in next(packet) })
                    } else {
                        plumber.onOutput { _ in outputs.withLock { $0 += 1 } }
                    }
                }
            }
            group.addTask {
                for _ in 0..<rounds where !port.emit(Number(0), portNumber: 0) {
                    missed.withLock { $0 += 1 }
                }
            }
        }
        #expect(missed.value == 0)
        #expect(outputs.value == rounds)
        withExtendedLifetime(plumber) {}
    }

    /// Plumbers wired to a port and freed on one thread while another emits through it: the port never loses the
    /// plumber that stays, each new plumber hears its own packet, and the freed ones are pruned (each kept nothing
    /// alive meanwhile: see LifetimeTests).
    @Test func plumbersComingAndGoingWhileAnotherThreadEmits() async {
        let port = NumberPort()
        let stayed = Locked(0)
        let staying = Plumber<Number>().addPort(port).onOutput { _ in stayed.withLock { $0 += 1 } }
        let rounds = 2_000
        let (missed, unheard) = (Locked(0), Locked(0))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<rounds {
                    let heard = Locked(false)
                    let passing = Plumber<Number>().addPort(port).onOutput { packet in
                        if packet.value == -round - 1 { heard.withLock { $0 = true } }
                    }
                    port.emit(Number(-round - 1), portNumber: 0)
                    if !heard.value { unheard.withLock { $0 += 1 } }
                    withExtendedLifetime(passing) {}
                }
            }
            group.addTask {
                for round in 0..<rounds where !port.emit(Number(round), portNumber: 0) {
                    missed.withLock { $0 += 1 }
                }
            }
        }
        #expect(missed.value == 0)
        #expect(unheard.value == 0)
        // Every emit reached the plumber that stayed: the other thread's and this one's.
        #expect(stayed.value == 2 * rounds)
        port.emit(Number(0), portNumber: 0)
        #expect(port.packetOutlet.wiredPlumbers.count == 1)
        withExtendedLifetime(staying) {}
    }
}
