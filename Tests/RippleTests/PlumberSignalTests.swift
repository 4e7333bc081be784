import Dispatch
import Ripple
import RippleTesting
import Testing

@Suite("Bridge: plumber.outputSignal() and processSignal")
struct PlumberSignalTests {
    @Test func everySubscriberHearsEveryOutput() {
        let port = SharePort()
        let plumber = Plumber<SharePacket>().addPort(port).addPipeline(RequestLink())
        let links = EventLog<String>()
        let docs = EventLog<String>()
        let d1 = plumber.outputSignal().map { $0.link ?? "-" }.subscribe(into: links)
        let d2 = plumber.outputSignal().map(\.docId).subscribe(into: docs)   // a second call shares the hub
        port.share("D1")
        port.share("secret-plan")    // blocked: not an output
        port.share("D2")
        #expect(links.values == ["https://ripple.example/D1", "https://ripple.example/D2"])
        #expect(docs.values == ["D1", "D2"])
        #expect(links.end == nil)
        #expect(plumber.unhandled.outputs == 0)
        #expect(plumber.unhandled.blocked == 1)
        d1.dispose()
        port.share("D3")
        #expect(links.values.count == 2)
        #expect(docs.values == ["D1", "D2", "D3"])
        d2.dispose()
    }

    @Test func onOutputAfterwardsTakesTheOutputBack() {
        let port = SharePort()
        let plumber = Plumber<SharePacket>().addPort(port)
        let signal = plumber.outputSignal()
        let log = EventLog<String>()
        let disposer = signal.map(\.docId).subscribe(into: log)
        port.share("A")
        let direct = Recorder<String>()
        plumber.onOutput { direct.record($0.docId) }
        port.share("B")
        _ = plumber.outputSignal()   // installs the same hub again
        port.share("C")
        #expect(log.values == ["A", "C"])
        #expect(direct.values == ["B"])
        disposer.dispose()
    }

    @Test func outputsWithNoSubscriberAreCounted() {
        let port = SharePort()
        let plumber = Plumber<SharePacket>().addPort(port)
        #expect(plumber.unheardSignalOutputs == 0)
        let signal = plumber.outputSignal()
        port.share("nobody")
        #expect(plumber.unheardSignalOutputs == 1)
        let log = EventLog<String>()
        let disposer = signal.map(\.docId).subscribe(into: log)
        port.share("someone")
        disposer.dispose()
        port.share("nobody again")
        #expect(log.values == ["someone"])
        #expect(plumber.unheardSignalOutputs == 2)
    }

    @Test func subscriptionPinsThePlumberUntilDisposed() {
        let port = SharePort()
        let log = EventLog<String>()
        weak var weakPlumber: Plumber<SharePacket>?
        var disposer: Disposer?
        do {
            let plumber = Plumber<SharePacket>().addPort(port)
            weakPlumber = plumber
            disposer = plumber.outputSignal().map(\.docId).subscribe(into: log)
        }
        #expect(weakPlumber != nil)
        port.share("still wired")
        disposer?.dispose()
        #expect(weakPlumber == nil)
        port.share("gone")
        #expect(!port.isWired)
        #expect(log.values == ["still wired"])
    }

    @Test func nothingLeaks() {
        expectReleased { tracker in
            let port = tracker.track(SharePort(), "port")
            let plumber = tracker.track(Plumber<SharePacket>().addPort(port).addPipeline(RequestLink()), "plumber")
            let log = EventLog<String>()
            let disposer = plumber.outputSignal().map(\.docId).take(5).subscribe(into: log)
            let second = plumber.outputSignal().subscribe(value: { _ in })
            port.share("X")
            disposer.dispose()
            second.dispose()
        }
        expectReleased { tracker in
            let port = tracker.track(SharePort(), "port")
            let plumber = tracker.track(Plumber<SharePacket>().addPort(port), "plumber")
            let log = EventLog<String>()
            plumber.outputSignal().map(\.docId).take(2).subscribe(into: log)
            port.share("1")
            port.share("2")
            #expect(log.values == ["1", "2"])
            #expect(log.end == "completed")
        }
    }

    @Test(.tags(.stress)) func concurrentOutputsReachEverySubscriberExactlyOnce() {
        let port = SharePort()
        let plumber = Plumber<SharePacket>().addPort(port)
        let first = Recorder<String>()
        let second = Recorder<String>()
        let d1 = plumber.outputSignal().subscribe(value: { first.record($0.docId) })
        let d2 = plumber.outputSignal().subscribe(value: { second.record($0.docId) })
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<perThread { port.share("\(thread)-\(index)") }
        }
        let expected = Set((0..<8).flatMap { thread in (0..<perThread).map { "\(thread)-\($0)" } })
        #expect(first.count == 8 * perThread)
        #expect(Set(first.values) == expected)
        #expect(second.count == 8 * perThread)
        #expect(Set(second.values) == expected)
        #expect(plumber.unheardSignalOutputs == 0)
        d1.dispose()
        d2.dispose()
    }

    @Test func processSignalSendsTheResultThenCompletes() async {
        let plumber = Plumber<SharePacket>().addPipeline(RequestLink())
        // The bags outlive the continuations' closures: a handle dropped when its closure returns would end the
        // subscription before the asynchronous stage answers.
        let kept = CancelBag(), kept2 = CancelBag()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            let log = EventLog<String>()
            plumber.processSignal(SharePacket(docId: "D9"), portNumber: 7)
                .map { result in "\(result.output?.portNumber ?? -1) \(result.output?.link ?? "stopped")" }
                .subscribe(value: { log.record($0) }, complete: { continuation.resume(returning: log.values) }).store(in: kept)
        }
        #expect(outcome == ["7 https://ripple.example/D9"])
        let blocked = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            plumber.processSignal(SharePacket(docId: "secret-x"), portNumber: 1)
                .subscribe(value: { continuation.resume(returning: $0.stoppingStage?.name) }).store(in: kept2)
        }
        #expect(blocked == "RequestLink")
        withExtendedLifetime((kept, kept2)) {}
    }

    @Test func disposingProcessSignalCancelsTheStages() async {
        let started = AsyncStream<Void>.makeStream()
        let cancelled = AsyncStream<Void>.makeStream()
        let never = AsyncStream<Void>.makeStream()     // never yields: the stage waits until it is cancelled
        let plumber = Plumber<SharePacket>().addPipeline(AsyncClosureStage<SharePacket>("wait") { packet in
            started.continuation.yield()
            await withTaskCancellationHandler {
                await never.stream.first { _ in true }
            } onCancel: {
                cancelled.continuation.yield()
            }
            return packet
        })
        let log = EventLog<String>()
        let disposer = plumber.processSignal(SharePacket(docId: "slow"), portNumber: 1)
            .map { $0.output?.docId ?? "stopped" }
            .subscribe(into: log)
        var startedIterator = started.stream.makeAsyncIterator()
        _ = await startedIterator.next()
        disposer.dispose()
        var cancelledIterator = cancelled.stream.makeAsyncIterator()
        _ = await cancelledIterator.next()
        #expect(log.values.isEmpty)
        #expect(log.end == nil)
        withExtendedLifetime(never.continuation) {}
    }
}
