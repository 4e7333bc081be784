import RippleCore
import RippleTesting
@testable import RippleSignals

/// Marble diagrams on virtual time, one character per second: `-` nothing, `|` completion, `#` error (`TestError(1)`),
/// any other character a value (that one-character string); `(…)` groups events of the same second (the group takes
/// one second). `"-a-b|"`: "a" at 1 s, "b" at 3 s, completion at 4 s.
enum Marbles {
    typealias Timed = (second: Int, event: Event<String>)

    static func parse(_ marbles: String) -> [Timed] {
        var events: [Timed] = []
        var second = 0
        var grouped = false
        for character in marbles {
            switch character {
            case "(": grouped = true
            case ")": grouped = false; second += 1
            default:
                switch character {
                case "-": break
                case "|": events.append((second, .complete))
                case "#": events.append((second, .error(1)))
                default: events.append((second, .value(String(character))))
                }
                if !grouped { second += 1 }
            }
        }
        return events
    }

    /// Draws `events` (already in time order) back as a marble string.
    static func draw(_ events: [Timed]) -> String {
        guard let last = events.last?.second else { return "" }
        var text = ""
        for second in 0...last {
            let now = events.filter { $0.second == second }.map(\.event)
            let glyphs = now.map { event -> String in
                switch event {
                case .value(let value): value
                case .complete: "|"
                case .error: "#"
                }
            }
            switch glyphs.count {
            case 0: text += "-"
            case 1: text += glyphs[0]
            default: text += "(" + glyphs.joined() + ")"
            }
        }
        return text
    }
}

/// A cold signal that plays a marble diagram from the moment it is subscribed (RippleTesting's cold `TestSignal`),
/// with when each of its subscriptions started and ended, in virtual seconds.
final class MarbleSource: Sendable {
    private let source: TestSignal<String, TestError>

    init(_ marbles: String, on scheduler: TestScheduler) {
        let events: [Recorded<String>] = Marbles.parse(marbles).map { timed in
            let time = Duration.seconds(timed.second)
            return switch timed.event {
            case .value(let value): .value(time, value)
            case .error(let code): .failed(time, TestError(code))
            case .complete: .completed(time)
            }
        }
        source = scheduler.coldSignal(events, failure: TestError.self)
    }

    var signal: Signal<String, TestError> { source.signal }
    var subscribedAt: [Int] { source.subscriptions.map { Int($0.subscribed.components.seconds) } }
    /// When subscriptions ended: disposed, or after their terminal event.
    var disposedAt: [Int] { source.subscriptions.compactMap { $0.disposed.map { Int($0.components.seconds) } } }
}

extension TestScheduler {
    /// The clock in whole seconds.
    var seconds: Int { Int(now.components.seconds) }
}

/// Subscribes at the scheduler's current time, runs the scheduler to the end, and draws what arrived as marbles,
/// second 0 being the subscription's; `disposal` (seconds after subscribing) disposes the subscription then.
func marbles(of signal: Signal<String, TestError>, on scheduler: TestScheduler,
             disposingAt disposal: Int? = nil) -> String {
    let arrived = Recorder<Marbles.Timed>()
    let start = scheduler.seconds
    let disposer = signal.subscribe(
        value: { arrived.record((scheduler.seconds - start, .value($0))) },
        error: { arrived.record((scheduler.seconds - start, .error($0.code))) },
        complete: { arrived.record((scheduler.seconds - start, .complete)) })
    if let disposal {
        scheduler.schedule(after: .seconds(disposal)) { disposer.dispose() }
    }
    scheduler.run()
    return Marbles.draw(arrived.values)
}

/// The `Never`-failing form of ``marbles(of:on:disposingAt:)``.
func marbles(of signal: Signal<String, Never>, on scheduler: TestScheduler) -> String {
    marbles(of: signal.setFailureType(to: TestError.self), on: scheduler)
}
