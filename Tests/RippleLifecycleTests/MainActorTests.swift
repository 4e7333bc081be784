import Dispatch
import RippleLifecycle
import RippleTesting
import Testing

/// A screen's view model as an app writes it: plain main-actor state, no locks, no `MainActor.assumeIsolated`.
@MainActor
final class ScreenViewModel {
    private(set) var events: [String] = []
    private(set) var onMainQueue: [Bool] = []

    func record(_ event: String) {
        events.append(event)
        onMainQueue.append(MainQueue.isCurrent)
    }
}


/// A subclass action that updates the view model it was given.
final class ViewModelAction: LifecycleAction {
    let model: ScreenViewModel

    init(model: ScreenViewModel) {
        self.model = model
        super.init()
    }

    override func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        model.record("subclass didAppear")
    }
}

@Suite("Main actor: actions update main-actor state directly")
struct MainActorActionsTests {
    /// Compiles in strict Swift 6 only because every kind of action is main-actor code; the events come from a
    /// task off the main actor, which must hop to it to dispatch, and every action runs on the main queue.
    @Test func everyKindOfActionUpdatesAMainActorViewModelOnTheMainQueue() async {
        let (model, screen) = await MainActor.run {
            let registry = LifecycleActions()
            let model = ScreenViewModel()
            let screen = LifecycleController(globals: registry)
            registry.register(BlockLifecycleAction(on: [.willAppear]) { _, _, _ in model.record("block willAppear") })
            screen.registerLifecycleAction(OnceLifecycleAction { _, _ in model.record("once didAppear") })
            screen.registerLifecycleAction(ViewModelAction(model: model))
            return (model, screen)
        }
        await Task.detached {
            #expect(!MainQueue.isCurrent)
            await MainActor.run {
                LifecycleActions.dispatch(.willAppear(animated: true), to: screen)
                LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
            }
        }.value
        await MainActor.run {
            #expect(model.events == ["block willAppear", "once didAppear", "subclass didAppear"])
            #expect(model.onMainQueue == [true, true, true])
        }
    }
}
