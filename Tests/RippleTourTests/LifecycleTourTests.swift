import Testing

@Suite("ripple-tour: lifecycle actions and the visible stack")
struct LifecycleTourTests {
    @Test func navigationTracksPagesAndTheStack() async {
        let lines = await tourLines("lifecycle")
        expectInOrder([
            "Contacts didAppear(animated: false) → trackPageBegin(Contacts)",
            "Contacts: loading system contacts (first appearance, animated: false)",
            "visible stack: Navigation > Contacts, top: Contacts",
            "Contacts didDisappear(animated: true) → trackPageEnd(Contacts)",
            "Chat didAppear(animated: true) → trackPageBegin(Chat)",
            "visible stack: Navigation > Chat, top: Chat",
            "Profile didAppear(animated: true) → trackPageBegin(Profile)",
            "visible stack: Navigation > Profile, top: Profile",
            "Profile didDisappear(animated: true) → trackPageEnd(Profile)",
            "visible stack: Navigation > Chat, top: Chat",
            "Contacts didAppear(animated: true) → trackPageBegin(Contacts)",
            "visible stack: Navigation > Contacts, top: Contacts",
        ], in: lines)
        #expect(lines.filter { $0.contains("loading system contacts") }.count == 1,
                "the once action loads contacts on the first appearance only")
    }
}
