import RippleCore
import RipplePipeline
import RippleTesting

/// A small value packet for the mechanics tests.
struct Number: Packet, Equatable {
    var portNumber = 0
    var value: Int
    /// Which stages touched it, in order.
    var path: [String] = []

    init(_ value: Int, portNumber: Int = 0) {
        self.value = value
        self.portNumber = portNumber
    }
}

/// A port anyone can emit through, from any thread: a `PacketSource` made of `let`s is checked `Sendable`.
final class NumberPort: PacketSource, Sendable {
    let packetOutlet = PacketOutlet<Number>()
}

/// Appends its name to the packet's path and passes it on.
struct Mark: PipelineStage {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    func receive(_ packet: Number, next: Next<Number>) {
        var packet = packet
        packet.path.append(name)
        next(packet)
    }
}

/// Blocks every packet.
struct Wall: PipelineStage {
    func receive(_ packet: Number, next: Next<Number>) {}
}

struct StageError: Error, Equatable {
    let reason: String
}

/// Counts events and lets a test wait, without sleeping, until a count is reached.
final class Tally: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = Lock()
    private var count = 0
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func hit() {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            count += 1
            let ready = waiters.filter { $0.target <= count }.map(\.continuation)
            waiters.removeAll { $0.target <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var value: Int {
        lock.withLock { count }
    }

    /// Returns once `hit()` has been called `target` times in all.
    func wait(for target: Int) async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if count >= target { return true }
                waiters.append((target, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// What a plumber's three handlers reported, in order, plus a tally to wait on.
final class OutcomeLog<P: Packet>: @unchecked Sendable {
    enum Entry {
        case output(P)
        case blocked(P, StageInfo)
        case failed(P, StageInfo, any Error)
    }

    let entries = Recorder<Entry>()
    let tally = Tally()

    func attach(to plumber: Plumber<P>) {
        plumber
            .onOutput { [self] in record(.output($0)) }
            .onBlocked { [self] in record(.blocked($0, $1)) }
            .onFailure { [self] in record(.failed($0, $1, $2)) }
    }

    private func record(_ entry: Entry) {
        entries.record(entry)
        tally.hit()
    }

    var outputs: [P] {
        entries.values.compactMap { if case .output(let packet) = $0 { packet } else { nil } }
    }

    var blocked: [(P, StageInfo)] {
        entries.values.compactMap { if case .blocked(let packet, let stage) = $0 { (packet, stage) } else { nil } }
    }

    var failures: [(P, StageInfo, any Error)] {
        entries.values.compactMap {
            if case .failed(let packet, let stage, let error) = $0 { (packet, stage, error) } else { nil }
        }
    }
}
