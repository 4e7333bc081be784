import Testing

@Suite("ripple-tour: the share-link pipeline")
struct PipelineTourTests {
    @Test func shareLinkScenario() async {
        let lines = await tourLines("pipeline")
        expectInOrder([
            "CheckLogin: alice is logged in",
            "CheckDocAttribute: doc-42 can have a link",
            "CheckUserAttribute: alice may share",
            "RequestDocLink: requesting a link for doc-42",
            "output: link https://docs.example.com/s/doc-42 (port 100, doc doc-42, user alice, entrance toolbar)",
            "CheckUserAttribute: bob may not share",
            "blocked by CheckUserAttribute: no link for bob on doc-42",
            "blocked by CheckDocAttribute: no link for alice on doc-9",
            "result: blocked at stage 1, CheckDocAttribute",
        ], in: lines)
        #expect(lines.filter { $0.hasPrefix("output:") }.count == 1, "the link is output exactly once")
    }
}
