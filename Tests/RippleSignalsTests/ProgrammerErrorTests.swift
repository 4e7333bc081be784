import RippleCore
import RippleTesting
import Testing
import RippleSignals

@Suite("Programmer errors")
struct ProgrammerErrorTests {
    @Test func negativeTake() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).take(-1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.take(_:) needs a count ≥ 0, got -1"))
    }

    @Test func negativeSkip() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).skip(-2)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.skip(_:) needs a count ≥ 0, got -2"))
    }

    @Test func negativeRetry() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).retry(-3)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.retry(_:) needs a count ≥ 0, got -3"))
    }

    @Test func nonPositiveDelay() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).delay(.zero, on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.delay(_:on:) needs an interval > 0, got 0.0 seconds"))
    }

    @Test func nonPositiveDebounce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).debounce(.seconds(-1), on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.debounce(_:on:) needs an interval > 0, got -1.0 seconds"))
    }

    @Test func nonPositiveThrottle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).throttle(.zero, on: TestScheduler())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.throttle(_:on:latest:) needs an interval > 0, got 0.0 seconds"))
    }

    @Test func emptyBufferingPolicies() async {
        let newest = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).values(bufferingPolicy: .bufferingNewest(0))
        }
        #expect(stderr(newest).contains("Signal.values(bufferingPolicy:) needs a limit ≥ 1, got .bufferingNewest(0)"))
        let oldest = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).values(bufferingPolicy: .bufferingOldest(-3))
        }
        #expect(stderr(oldest).contains("Signal.values(bufferingPolicy:) needs a limit ≥ 1, got .bufferingOldest(-3)"))
    }

    @Test func negativeShareReplay() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).share(replay: -1)
        }
        #expect(stderr(result).contains("Signal.share(replay:) needs a count ≥ 0, got -1"))
    }

    @Test func nonPositiveTimeout() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.just(1).timeout(.zero, on: TestScheduler())
        }
        #expect(stderr(result).contains("Signal.timeout(_:on:customError:) needs an interval > 0, got 0.0 seconds"))
    }
}

/// What an exit test's child process wrote to standard error.
private func stderr(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
