// Invariants under test: a `handleEvents` subscription ends once — by a terminal event (its `complete` or `error`
// hook runs) or by disposal (`disposed` runs) — never both, even when the two race on two threads. (The terminal
// callback used to set a flag the cleanup read: a disposal on the other thread read it unset, and both hooks ran,
// in up to a quarter of the rounds.)
import Dispatch
import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

@Suite("handleEvents: a terminal event and a disposal racing", .serialized)
struct HandleEventsEndTests {
    /// Each round: a fresh subscription; one thread completes (or fails) its source while the other disposes it.
    /// Returns the rounds whose hooks were not exactly one of the terminal hook and `disposed`.
    static func race(failing: Bool, rounds: Int) -> [String: Int] {
        let hooks = Locked<[String]>([])
        let source = Locked<SignalSubscriber<Int, TestError>?>(nil)
        let handle = Locked<Disposer?>(nil)
        let signal = Signal<Int, TestError> { subscriber in
            source.withLock { $0 = subscriber }
            return .empty
        }.handleEvents(error: { _ in hooks.withLock { $0.append("error") } },
                       complete: { hooks.withLock { $0.append("complete") } },
                       disposed: { hooks.withLock { $0.append("disposed") } })
        @Sendable func subscribe() {
            handle.withLock { $0 = signal.subscribe(value: { _ in }, error: { _ in }) }
        }
        subscribe()
        let wrong = Locked<[String: Int]>([:])
        LockstepBarrier.race(rounds: rounds, first: {
            let subscriber = source.withLock { $0 }
            if failing { subscriber?.sendError(TestError()) } else { subscriber?.sendComplete() }
        }, second: {
            handle.withLock { $0 }?.dispose()
        }, check: {
            let heard = hooks.withLock { hooks in
                defer { hooks = [] }
                return hooks
            }
            if heard.count != 1 { wrong.withLock { $0[heard.joined(separator: ", "), default: 0] += 1 } }
            subscribe()
        })
        handle.withLock { $0 }?.dispose()
        return wrong.withLock { $0 }
    }

    @Test("completion and disposal racing: exactly one of complete and disposed runs, every round",
          .tags(.stress))
    func completionRacingDisposal() {
        let wrong = Self.race(failing: false, rounds: 20_000)
        #expect(wrong.isEmpty, "rounds with other than one hook: \(wrong)")
    }

    @Test("error and disposal racing: exactly one of error and disposed runs, every round", .tags(.stress))
    func errorRacingDisposal() {
        let wrong = Self.race(failing: true, rounds: 20_000)
        #expect(wrong.isEmpty, "rounds with other than one hook: \(wrong)")
    }
}
