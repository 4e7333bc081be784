import Dispatch
import RippleCore
import RipplePipeline
import RippleTesting
import Testing

/// The seed's `PortDelegate` form: any object adopts `PacketSource` with one stored property. A final class of `let`s
/// is `Sendable`, checked by the compiler: no `@unchecked`.
final class TapSource: PacketSource, Sendable {
    let packetOutlet = PacketOutlet<Number>()

    func tap(_ value: Int) {
        emit(Number(value), portNumber: 7)
    }
}

/// A `PacketPort` subclass with state of its own and no annotation: it compiles without a warning (the package
/// builds warning-free), and is used from one task.
final class CountingPort: PacketPort<Number> {
    private(set) var sent = 0

    func send(_ value: Int) {
        sent += 1
        emit(Number(value), portNumber: 3)
    }
}

/// A main-actor object, as a view controller would be, that is its own port.
@MainActor
final class ScreenSource: PacketSource {
    let packetOutlet = PacketOutlet<Number>()
    private(set) var taps = 0

    func tap() {
        taps += 1
        emit(Number(taps), portNumber: 1)
    }
}

@Suite("Ports as a protocol (PacketSource) and as a class (PacketPort)", .timeLimit(.minutes(10)))
struct PacketSourceTests {
    @Test func anAdoptingClassFeedsThePlumberWithItsPortNumber() {
        let source = TapSource()
        let outputs = Recorder<Number>()
        let plumber = Plumber<Number>().addPort(source).addPipeline(Mark("a")).onOutput { outputs.record($0) }
        #expect(source.isWired)
        source.tap(1)
        #expect(outputs.values.map(\.value) == [1])
        #expect(outputs.values.map(\.portNumber) == [7])
        #expect(outputs.values.map(\.path) == [["a"]])
        withExtendedLifetime(plumber) {}
    }

    @Test func aSendableSourceEmitsFromSeveralThreads() {
        let source = TapSource()
        let total = Locked(0)
        let plumber = Plumber<Number>().addPort(source).onOutput { packet in total.withLock { $0 += packet.value } }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 1...1_000 { source.tap(thread * 1_000 + value) }
        }
        #expect(total.withLock { $0 } == (1...8_000).reduce(0, +))
        withExtendedLifetime(plumber) {}
    }

    @Test func aSubclassWithItsOwnStateNeedsNoAnnotation() {
        let port = CountingPort()
        let outputs = Recorder<Int>()
        let plumber = Plumber<Number>().addPort(port).onOutput { outputs.record($0.portNumber) }
        port.send(1)
        port.send(2)
        #expect(port.sent == 2)
        #expect(outputs.values == [3, 3])
        withExtendedLifetime(plumber) {}
    }

    @MainActor
    @Test func aMainActorObjectIsItsOwnPort() {
        let screen = ScreenSource()
        let outputs = Recorder<Int>()
        let plumber = Plumber<Number>().addPort(screen).onOutput { outputs.record($0.value) }
        screen.tap()
        screen.tap()
        #expect(outputs.values == [1, 2])
        withExtendedLifetime(plumber) {}
    }

    @Test func addingASourceTwiceWiresItOnceAndOneSourceFeedsSeveralPlumbers() {
        let source = TapSource()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let one = Plumber<Number>().addPort(source).addPort(source).onOutput { first.record($0.value) }
        let two = Plumber<Number>().addPort(source).onOutput { second.record($0.value) }
        #expect(one.portCount == 1)
        #expect(source.emit(Number(5), portNumber: 0))
        #expect(first.values == [5])
        #expect(second.values == [5])
        withExtendedLifetime((one, two)) {}
    }

    /// Thousands of ports on one plumber (one per cell of a long list), each added twice: wired once each, in order.
    @Test func thousandsOfPortsEachAddedTwiceAreEachWiredOnce() {
        let ports = (0..<3_000).map { _ in NumberPort() }
        let outputs = Recorder<Int>()
        let plumber = Plumber<Number>().onOutput { outputs.record($0.portNumber) }
        for port in ports { plumber.addPort(port) }
        for port in ports.reversed() { plumber.addPort(port) }
        #expect(plumber.portCount == ports.count)
        for (number, port) in ports.enumerated() { port.emit(Number(0), portNumber: number) }
        #expect(outputs.values == Array(0..<ports.count))
        // Ports hold the plumber's core, not the plumber: kept to here, or release builds free it before the emits.
        withExtendedLifetime(plumber) {}
    }

    @Test func thePlumberKeepsItsSourceAliveAndReleasesItWithItself() {
        weak var weakSource: TapSource?
        var plumber: Plumber<Number>? = Plumber<Number>()
        do {
            let source = TapSource()
            weakSource = source
            plumber?.addPort(source)
        }
        #expect(weakSource != nil)
        plumber = nil
        #expect(weakSource == nil)
    }

    @Test func aSourceWhosePlumbersAreGoneReportsNobodyListening() {
        let source = TapSource()
        #expect(!source.emit(Number(1), portNumber: 0))
        do {
            let plumber = Plumber<Number>().addPort(source).onOutput { _ in }
            #expect(source.emit(Number(1), portNumber: 0))
            withExtendedLifetime(plumber) {}
        }
        #expect(!source.isWired)
        #expect(!source.emit(Number(2), portNumber: 0))
    }
}
