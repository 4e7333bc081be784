import RippleLifecycle
import Testing

@Suite("Lifecycle programmer errors stop with a message naming the API and the value")
struct LifecycleProgrammerErrorTests {
    @Test func emptyIdentifier() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = LifecycleAction(identifier: "")
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("LifecycleAction.init(identifier:) needs a non-empty identifier, got \"\""))
    }

    @Test func blockActionWithoutPhases() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                _ = BlockLifecycleAction(on: []) { _, _, _ in }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BlockLifecycleAction.init(on:) needs at least one phase, got []"))
    }
}
