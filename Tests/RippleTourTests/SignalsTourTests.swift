import Testing

@Suite("ripple-tour: GYSignal's README")
struct SignalsTourTests {
    @Test func bindingCompositionAndOperators() async {
        let lines = await tourLines("signals")
        expectInOrder(["value=1", "value=2", "value=3"], in: lines)
        expectInOrder([
            "requestA finished",
            "A and B done (requestA, requestB): start C",
            "requestC started",
            "value=requestC",
        ], in: lines)
        #expect(lines.filter { $0 == "requestC started" }.count == 1, "C fires once, after both A and B")
        expectInOrder(["value=1", "complete", "disposer: resources released"], in: lines)
        expectInOrder(["just: 666", "filter: 1", "filter: 3", "filter: 5",
                       "different: 1", "different: 2", "different: 3", "different: 1",
                       "take: 1", "take: 2", "take: 3", "take: complete", "skip: 4", "skip: 5",
                       "retry: ok", "finally: complete", "finally: after complete", "map: new value",
                       "merge: complete", "zip: (1, a)", "zip: (2, b)"], in: lines)
        #expect(!lines.contains("take: 4"))
    }
}
