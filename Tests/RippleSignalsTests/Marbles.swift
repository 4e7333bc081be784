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

/// A cold signal that plays a marble diagram from the moment it is subscribed, and remembers when each of its
/// subscriptions started and was disposed (in virtual seconds).
final class MarbleSource: @unchecked Sendable {
    let scheduler: TestScheduler
    let events: [Marbles.Timed]
    private let log = Locked<(subscribed: [Int], disposed: [Int])>(([], []))

    init(_ marbles: String, on scheduler: TestScheduler) {
        self.scheduler = scheduler
        events = Marbles.parse(marbles)
    }

    var subscribedAt: [Int] { log.withLock { $0.subscribed } }
    var disposedAt: [Int] { log.withLock { $0.disposed } }

    var signal: Signal<String, TestError> {
        Signal { [self] subscriber in
            log.withLock { $0.subscribed.append(scheduler.seconds) }
            let work = events.map { timed in
                scheduler.schedule(after: .seconds(timed.second)) {
                    switch timed.event {
                    case .value(let value): subscriber.send(value)
                    case .error(let code): subscriber.sendError(TestError(code))
                    case .complete: subscriber.sendComplete()
                    }
                }
            }
            return Disposer { [self] in
                for item in work { item.cancel() }
                log.withLock { $0.disposed.append(scheduler.seconds) }
            }
        }
    }
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
