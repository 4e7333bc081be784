import Testing

@Suite("ripple-tour: ZZActionPipe's README examples")
struct PipesTourTests {
    @Test func printsEveryExampleInOrder() async {
        let lines = await tourLines("pipes")
        expectInOrder([
            "number _ 999 , objc _ [1, 2, 3]",
            "result _ 100.000000",
            "pipe1 _ called size: 20.000000 10.000000 , hello",
            "pipe2 _ called size: 20.000000 10.000000 , hello",
            "pipe3 _ called size: 20.000000 10.000000 , hello",
            "someFunc3 called.",
            "pipe1 _ return nil.",
            "pipe2 _ up steam return NSDate.",
            "pipe3 _ up steam return not Null.",
            "pipe1 _ param objc is Array.",
            "pipe1 _ state 1.",
            "pipe1 _ state 10.",
            "pipe1 _ state 1.",
            "pipe1 _ state 10.",
            "Robot No.999 birth day _ Wed Jun 23 19:21:28 2021",
            "result _ Wed Jun 23 19:21:28 2021",
            "result _ Thu Jun 24 17:50:34 2021",
            "result _ [1, 2, 3]",
        ], in: lines)
        #if RIPPLE_WITHOUT_ACTION_PROTOCOL
        let throughTheProtocol = 0
        #else
        let throughTheProtocol = 2
        #endif
        #expect(lines.filter { $0.hasPrefix("pipe") && $0.contains("state") }.count == 4 + throughTheProtocol,
                "doWithState(1), (10) and (1 | 10) run one, one and two actions; (1 | 10) again through the protocol")
    }

    // The tour has these sections only with the macro (CI's release and -Osize passes build without it).
    #if !RIPPLE_WITHOUT_ACTION_PROTOCOL
    @Test func showsTheSeedsExamplesThroughThePipeAsTheProtocol() async {
        let lines = await tourLines("pipes")
        guard let start = lines.firstIndex(where: { $0.contains("a pipe as the protocol") }) else {
            Issue.record("no section for the pipe as the protocol")
            return
        }
        #expect(Array(lines[start...].filter { !$0.hasPrefix("  »") }.dropFirst().prefix(12)) == [
            "number _ 999 , objc _ [1, 2, 3]",
            "result _ 100.000000",
            "pipe1 _ called size: 20.000000 10.000000 , hello",
            "pipe2 _ called size: 20.000000 10.000000 , hello",
            "pipe3 _ called size: 20.000000 10.000000 , hello",
            "someFunc3 called.",
            "responds to someFunc3 through pipe3: true",
            "pipe1 _ state 1.",
            "pipe1 _ state 10.",
            "<TestObject> , 999, in instance object",
            "result _ <Token>",
            "",
        ])
    }

    @Test func showsADelegateSplitOverThreePipes() async {
        let lines = await tourLines("pipes")
        guard let start = lines.firstIndex(where: { $0.contains("one delegate split over three pipes") }) else {
            Issue.record("no section for the delegate split over three pipes")
            return
        }
        #expect(Array(lines[(start + 2)...]) == [
            "analytics _ open 42",
            "controller _ showing document 42",
            "canDelete(42) _ true",
            "permissions _ document 7 is locked",
            "canDelete(7) _ false",
        ])
    }
    #endif
}
