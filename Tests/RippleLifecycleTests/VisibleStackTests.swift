@testable import RippleLifecycle
import Testing

@Suite("The visible stack (the seed's UIStack)")
@MainActor
struct VisibleStackTests {
    let registry = LifecycleActions()
    let stack = VisibleStack()

    init() {
        stack.install(in: registry)
    }

    @Test func pushesOnDidAppearAndRemovesOnDidDisappear() {
        let a = Screen("A", globals: registry)
        let b = Screen("B", globals: registry)
        #expect(stack.hosts.isEmpty)
        #expect(stack.top == nil)

        LifecycleActions.dispatch(.willAppear(animated: true), to: a)
        #expect(stack.hosts.isEmpty)
        LifecycleActions.dispatch(.didAppear(animated: true), to: a)
        LifecycleActions.dispatch(.didAppear(animated: true), to: b)
        #expect(stack.hosts.titles == ["A", "B"])
        #expect(stack.top === b)

        LifecycleActions.dispatch(.willDisappear(animated: true), to: b)
        #expect(stack.hosts.titles == ["A", "B"])
        LifecycleActions.dispatch(.didDisappear(animated: true), to: b)
        #expect(stack.hosts.titles == ["A"])
        #expect(stack.top === a)
    }

    @Test func didDisappearRemovesEveryOccurrence() {
        let a = Screen("A", globals: registry)
        let b = Screen("B", globals: registry)
        for host in [a, b, a, b, a] {
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        }
        #expect(stack.hosts.titles == ["A", "B", "A", "B", "A"])
        LifecycleActions.dispatch(.didDisappear(animated: false), to: a)
        #expect(stack.hosts.titles == ["B", "B"])
        LifecycleActions.dispatch(.didDisappear(animated: false), to: b)
        #expect(stack.hosts.isEmpty)
    }

    @Test func freedHostsAreCompacted() {
        let a = Screen("A", globals: registry)
        var b: Screen? = Screen("B", globals: registry)
        var c: Screen? = Screen("C", globals: registry)
        for host in [a, b!, c!] {
            LifecycleActions.dispatch(.didAppear(animated: false), to: host)
        }
        b = nil
        c = nil
        #expect(stack.storedEntryCount == 3)
        #expect(stack.top === a)
        #expect(stack.hosts.titles == ["A"])
        #expect(stack.storedEntryCount == 1)
    }

    @Test func topFollowsAPushPushPopNavigation() {
        let container = Screen("Navigation", globals: registry)
        let navigation = Navigation(container: container)
        let contacts = Screen("Contacts", globals: registry)
        let chat = Screen("Chat", globals: registry)
        let profile = Screen("Profile", globals: registry)

        navigation.show(root: contacts)
        #expect(stack.hosts.titles == ["Navigation", "Contacts"])
        #expect(stack.top === contacts)
        navigation.push(chat)
        #expect(stack.hosts.titles == ["Navigation", "Chat"])
        #expect(stack.top === chat)
        navigation.push(profile)
        #expect(stack.hosts.titles == ["Navigation", "Profile"])
        #expect(stack.top === profile)
        navigation.pop()
        #expect(stack.hosts.titles == ["Navigation", "Chat"])
        #expect(stack.top === chat)
    }

    @Test func anUninstalledStackStopsTracking() {
        let a = Screen("A", globals: registry)
        LifecycleActions.dispatch(.didAppear(animated: false), to: a)
        stack.uninstall(from: registry)
        LifecycleActions.dispatch(.didDisappear(animated: false), to: a)
        LifecycleActions.dispatch(.didAppear(animated: false), to: Screen("B", globals: registry))
        #expect(stack.hosts.titles == ["A"])
    }
}
