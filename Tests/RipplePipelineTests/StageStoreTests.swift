import Dispatch
import Foundation
import RippleCore
import RipplePipeline
import RippleTesting
import Synchronization
import Testing

/// A plumber built one `addPipeline` at a time appends to a store its chain snapshots share (see `StageStore`).
@Suite("The stage store")
struct StageStoreTests {
    /// Enough appends to outgrow the store many times over (it starts with room for 4 and doubles).
    static let stageCount = 5_000

    @Test("stages added one by one each run once, in order, and know their place")
    func stagesAddedOneByOne() {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let misplaced = Locked(0)
        for position in 0..<Self.stageCount {
            plumber.addPipeline(ClosureStage("+\(position)") { (packet: Number, next) in
                if next.stage.index != position || packet.value != position { misplaced.withLock { $0 += 1 } }
                next(Number(packet.value + 1))
            })
        }
        let outputs = Locked<[Int]>([])
        plumber.onOutput { packet in outputs.withLock { $0.append(packet.value) } }
        port.emit(Number(0), portNumber: 1)
        #expect(outputs.withLock { $0 } == [Self.stageCount])
        #expect(misplaced.withLock { $0 } == 0)
        #expect(plumber.stages.count == Self.stageCount)
        #expect(plumber.stages == (0..<Self.stageCount).map { StageInfo(index: $0, name: "+\($0)") })
    }

    @Test("a packet runs the stages there were when it entered, while another thread adds more")
    func appendWhileEmitting() {
        let port = NumberPort()
        let plumber = Plumber<Number>().addPort(port)
        let outputs = Locked<[Int]>([])
        plumber.onOutput { packet in outputs.withLock { $0.append(packet.value) } }
        let started = Atomic(false)
        let done = Atomic(false)
        let added = 2_000
        let finished = DispatchSemaphore(value: 0)
        // A thread of its own (not `concurrentPerform`, which may run both halves on one thread, where the wait for
        // `started` would never end).
        Thread.detachNewThread {
            while !started.load(ordering: .acquiring) {}
            for _ in 0..<added {
                plumber.addPipeline(ClosureStage("+1") { (packet: Number, next) in next(Number(packet.value + 1)) })
            }
            done.store(true, ordering: .releasing)
            finished.signal()
        }
        // Emits until the other thread is done, so the two overlap; each output is the length of the chain its
        // packet entered, which only grows.
        port.emit(Number(0), portNumber: 1)
        started.store(true, ordering: .releasing)
        while !done.load(ordering: .acquiring) { port.emit(Number(0), portNumber: 1) }
        finished.wait()
        port.emit(Number(0), portNumber: 1)
        // Ports hold the plumber's core, not the plumber: kept to here, or release builds may free it before the emit.
        withExtendedLifetime(plumber) {}
        let seen = outputs.withLock { $0 }
        #expect(seen.first == 0)
        #expect(seen.last == added)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(seen.allSatisfy { (0...added).contains($0) })
    }
}
