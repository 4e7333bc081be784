import RippleLifecycle
import Testing

@Suite("Lifecycle events")
struct LifecycleEventTests {
    @Test(arguments: LifecyclePhase.allCases, [true, false])
    func anEventRebuiltFromItsPhaseKeepsPhaseAndAnimated(phase: LifecyclePhase, animated: Bool) {
        let event = LifecycleEvent(phase, animated: animated)
        #expect(event.phase == phase)
        #expect(event.animated == (phase == .didLoad ? false : animated))
    }

    @Test func descriptionsNameThePhaseAndTheFlag() {
        #expect(LifecycleEvent.didLoad.description == "didLoad")
        #expect(LifecycleEvent.willDisappear(animated: true).description == "willDisappear(animated: true)")
        #expect(LifecyclePhase.allCases.map(\.description)
                == ["didLoad", "willAppear", "didAppear", "willDisappear", "didDisappear"])
    }
}
