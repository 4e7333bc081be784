import RippleCore
import Testing

@Suite("Programmer errors stop with a message naming the API and the value")
struct ProgrammerErrorTests {
    @Test func negativeCount() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            requireNonNegative(-1, "Node.skip(_:)")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Ripple: Node.skip(_:) needs a count ≥ 0, got -1"))
    }

    @Test func nonPositiveInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            requirePositive(.zero, "Node.throttle(_:on:)")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Ripple: Node.throttle(_:on:) needs an interval > 0, got 0.0 seconds"))
    }

    @Test func validInputPasses() {
        requireNonNegative(0, "Node.skip(_:)")
        requirePositive(.nanoseconds(1), "Node.throttle(_:on:)")
    }
}
