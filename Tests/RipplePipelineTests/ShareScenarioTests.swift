import RipplePipeline
import RippleTesting
import Testing

@Suite("The seed's share-link scenario", .timeLimit(.minutes(10)))
struct ShareScenarioTests {
    let event = ["docId": "doc-42", "userId": "alice", "entrance": "toolbar"]

    @Test func linkIsGeneratedEndToEnd() async throws {
        let port = ShareEventPort()
        let trace = Recorder<String>()
        let plumber = makeSharePlumber(port: port, trace: trace.record)
        let log = OutcomeLog<SharePacket>()
        log.attach(to: plumber)

        port.receiveShareEvent(event)
        await log.tally.wait(for: 1)

        #expect(log.outputs.count == 1)
        let packet = try #require(log.outputs.first)
        #expect(packet.portNumber == 100)
        #expect(packet.docId == "doc-42")
        #expect(packet.userId == "alice")
        #expect(packet.entrance == "toolbar")
        #expect(packet.metaData == event)
        #expect(packet.link == "https://docs.example.com/s/doc-42")
        #expect(trace.values == [
            "CheckLogin: alice is logged in",
            "CheckDocAttribute: doc-42 can have a link",
            "CheckUserAttribute: alice may share",
            "RequestDocLink: requesting a link for doc-42",
        ])

        // A second share that is blocked synchronously proves no second output of the first one was pending.
        port.receiveShareEvent(["docId": "doc-42", "userId": "mallory", "entrance": "menu"])
        await log.tally.wait(for: 2)
        #expect(log.outputs.count == 1)
        #expect(log.blocked.map(\.1.name) == ["CheckLogin"])
    }

    @Test func processReturnsTheLink() async {
        let port = ShareEventPort()
        let outputs = Recorder<String>()
        let plumber = makeSharePlumber(port: port).onOutput { outputs.record($0.link ?? "-") }

        let packet = SharePacket(docId: "doc-7", userId: "alice")
        let result = await plumber.process(packet, portNumber: ShareEventPort.portNumber)

        #expect(result.output?.link == "https://docs.example.com/s/doc-7")
        #expect(result.output?.portNumber == 100)
        #expect(outputs.values == ["https://docs.example.com/s/doc-7"])
    }

    @Test(arguments: [
        (["docId": "doc-42", "userId": "mallory"], "CheckLogin", 0),
        (["docId": "doc-1", "userId": "alice"], "CheckDocAttribute", 1),
        (["docId": "doc-42", "userId": "bob"], "CheckUserAttribute", 2),
    ])
    func eachCheckBlocksAndIsNamed(event: [String: String], stage: String, index: Int) async throws {
        let port = ShareEventPort()
        let plumber = makeSharePlumber(port: port)
        let log = OutcomeLog<SharePacket>()
        log.attach(to: plumber)

        port.receiveShareEvent(event)
        await log.tally.wait(for: 1)

        #expect(log.outputs.isEmpty)
        let (packet, info) = try #require(log.blocked.first)
        #expect(info == StageInfo(index: index, name: stage))
        #expect(packet.portNumber == 100)
        #expect(packet.link == nil)

        let result = await plumber.process(SharePacket(docId: event["docId"]!, userId: event["userId"]!),
                                           portNumber: 100)
        #expect(result.stoppingStage == StageInfo(index: index, name: stage))
    }
}
