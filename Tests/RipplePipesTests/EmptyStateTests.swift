import Foundation
import RipplePipes
import Testing

/// The empty state (0) shares a bit with nothing: registered with `state(0)`, an action ran in no `doWithState` call;
/// called with `doWithState(0)`, a pipe ran only its actions without a state. Both lost the value silently; both are
/// now programmer errors naming the API and the value.
@Suite struct EmptyStateTests {
    @Test func anActionRegisteredWithTheEmptyStateIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            _ = pipe.registerAction(\.tick).state(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionRegistration.state(_:) for tick needs a state with at least one bit set, got ActionState(0)"))
    }

    @Test func anEmptyStateMaskFromAVariableIsRefusedToo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            let mask = 0
            _ = pipe.registerAction(\.name).state(ActionState(mask))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionRegistration.state(_:) for name needs a state with at least one bit set"))
    }

    @Test func aCallWithTheEmptyStateIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.tick).action { _, number in number }
            _ = pipe.doWithState(0).tick(1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionPipe.doWithState(_:) needs a state with at least one bit set, got ActionState(0)"))
    }

    @Test func aCallWithTheEmptyStateAndATupleIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            _ = pipe.doWithStateAndTuple([], ["unused"]).tick(1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionPipe.doWithStateAndTuple(_:_:) needs a state with at least one bit set, got ActionState(0)"))
    }

    @Test func everyNonEmptyStateStillWorks() {
        let pipe = ActionPipe(CounterActions())
        pipe.registerAction(\.tick).state(ActionState(rawValue: 1 << 63)).action { _, number in number }
        #expect(pipe.doWithState(ActionState(rawValue: 1 << 63)).tick(5) == 5)
        #expect(pipe.doWithState(1).tick(5) == nil)
        #expect(pipe.tick(6) == 6, "a call without state runs every action")
    }
}
