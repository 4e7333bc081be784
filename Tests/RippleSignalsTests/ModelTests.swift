import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// Model-based tests: random event sequences run through Ripple and through a tiny reference model, outputs compared.
@Suite("Model-based operator tests")
struct ModelTests {
    static let cases = 250

    enum Input: Equatable, CustomStringConvertible {
        case value(Int)
        case error(Int)
        case complete

        var description: String {
            switch self {
            case .value(let value): "\(value)"
            case .error(let code): "error(\(code))"
            case .complete: "complete"
            }
        }
    }

    /// A random sequence of events for `inputs` inputs; may continue after a terminal event (which must be ignored).
    static func randomEvents(_ random: inout SplitMix64, inputs: Int = 1) -> [(Int, Input)] {
        let length = Int.random(in: 0...24, using: &random)
        return (0..<length).map { _ in
            let input = Int.random(in: 0..<inputs, using: &random)
            switch Int.random(in: 0..<20, using: &random) {
            case 0: return (input, .error(Int.random(in: 1...3, using: &random)))
            case 1, 2: return (input, .complete)
            default: return (input, .value(Int.random(in: 0...4, using: &random)))
            }
        }
    }

    /// Feeds `events` into the sources and returns what `subscribe` recorded.
    static func run<Output: Equatable & Sendable>(
        _ events: [(Int, Input)], sources: [ManualSource<Int, TestError>],
        _ signal: Signal<Output, TestError>
    ) -> [Event<Output>] {
        let recorder = Recorder<Event<Output>>()
        let disposer = signal.record(into: recorder)
        for (input, event) in events {
            switch event {
            case .value(let value): sources[input].send(value)
            case .error(let code): sources[input].sendError(TestError(code))
            case .complete: sources[input].sendComplete()
            }
        }
        disposer.dispose()
        return recorder.values
    }

    /// The events one input actually delivers: everything up to and including its first terminal event.
    static func grammar(_ events: [(Int, Input)]) -> [(Int, Input)] {
        var ended: Set<Int> = []
        return events.filter { input, event in
            guard !ended.contains(input) else { return false }
            if !isValue(event) { ended.insert(input) }
            return true
        }
    }

    static func isValue(_ event: Input) -> Bool {
        if case .value = event { return true }
        return false
    }

    /// The reference for single-input operators: `step` maps each value to outputs and says whether to stop.
    static func model<Output>(_ events: [(Int, Input)],
                              step: (Int) -> (outputs: [Output], complete: Bool)) -> [Event<Output>] {
        var out: [Event<Output>] = []
        for (_, event) in grammar(events) {
            switch event {
            case .value(let value):
                let (outputs, complete) = step(value)
                out += outputs.map { .value($0) }
                if complete { return out + [.complete] }
            case .error(let code): return out + [.error(code)]
            case .complete: return out + [.complete]
            }
        }
        return out
    }

    static func check<Output: Equatable & Sendable>(
        _ name: String, inputs: Int = 1, seed: UInt64,
        build: ([Signal<Int, TestError>], inout SplitMix64) -> Signal<Output, TestError>,
        reference: ([(Int, Input)], inout SplitMix64) -> [Event<Output>]
    ) {
        var random = SplitMix64(seed: seed)
        for index in 0..<cases {
            let sources = (0..<inputs).map { _ in ManualSource<Int, TestError>() }
            let events = randomEvents(&random, inputs: inputs)
            // Both sides draw their parameters from copies of the same generator, so they agree.
            var buildRandom = random
            var modelRandom = random
            _ = random.next()
            let actual = run(events, sources: sources, build(sources.map(\.signal), &buildRandom))
            let expected = reference(events, &modelRandom)
            #expect(actual == expected, "\(name) case \(index) (seed \(seed)): events \(events.map { "\($0.0):\($0.1)" })")
        }
    }

    @Test func map() {
        Self.check("map", seed: 1, build: { sources, _ in sources[0].map { $0 * 10 + 1 } },
                   reference: { events, _ in Self.model(events) { ([$0 * 10 + 1], false) } })
    }

    @Test func filter() {
        Self.check("filter", seed: 2, build: { sources, _ in sources[0].filter { $0 % 2 == 0 } },
                   reference: { events, _ in Self.model(events) { ($0 % 2 == 0 ? [$0] : [], false) } })
    }

    @Test func different() {
        Self.check("different", seed: 3, build: { sources, _ in sources[0].distinctUntilChanged() },
                   reference: { events, _ in
                       var last: Int?
                       return Self.model(events) { value in
                           defer { last = value }
                           return (last == value ? [] : [value], false)
                       }
                   })
    }

    @Test func take() {
        Self.check("take", seed: 4,
                   build: { sources, random in sources[0].take(Int.random(in: 0...5, using: &random)) },
                   reference: { events, random in
                       let count = Int.random(in: 0...5, using: &random)
                       if count == 0 { return [.complete] }
                       var taken = 0
                       return Self.model(events) { value in
                           taken += 1
                           return ([value], taken == count)
                       }
                   })
    }

    @Test func skip() {
        Self.check("skip", seed: 5,
                   build: { sources, random in sources[0].skip(Int.random(in: 0...5, using: &random)) },
                   reference: { events, random in
                       var remaining = Int.random(in: 0...5, using: &random)
                       return Self.model(events) { value in
                           if remaining > 0 {
                               remaining -= 1
                               return ([], false)
                           }
                           return ([value], false)
                       }
                   })
    }

    @Test func merge() {
        Self.check("merge", inputs: 3, seed: 6, build: { sources, _ in sources[0].merge(sources[1], sources[2]) },
                   reference: { events, _ in
                       var out: [Event<Int>] = []
                       var completed: Set<Int> = []
                       for (input, event) in Self.grammar(events) {
                           switch event {
                           case .value(let value): out.append(.value(value))
                           case .error(let code): return out + [.error(code)]
                           case .complete:
                               completed.insert(input)
                               if completed.count == 3 { return out + [.complete] }
                           }
                       }
                       return out
                   })
    }

    @Test func zip() {
        Self.check("zip", inputs: 2, seed: 7,
                   build: { sources, _ in
                       let zipped: Signal<(Int, Int), TestError> = sources[0].zip(sources[1])
                       return zipped.map { $0.0 * 10 + $0.1 }
                   },
                   reference: { events, _ in
                       var queues: [[Int]] = [[], []]
                       var completed = [false, false]
                       var out: [Event<Int>] = []
                       for (input, event) in Self.grammar(events) {
                           switch event {
                           case .value(let value):
                               queues[input].append(value)
                               if !queues[0].isEmpty && !queues[1].isEmpty {
                                   out.append(.value(queues[0].removeFirst() * 10 + queues[1].removeFirst()))
                               }
                           case .error(let code): return out + [.error(code)]
                           case .complete: completed[input] = true
                           }
                           if (0..<2).contains(where: { completed[$0] && queues[$0].isEmpty }) {
                               return out + [.complete]
                           }
                       }
                       return out
                   })
    }

    @Test func combineLatest() {
        Self.check("combineLatest", inputs: 2, seed: 8,
                   build: { sources, _ in
                       let combined: Signal<(Int, Int), TestError> = sources[0].combineLatest(sources[1])
                       return combined.map { $0.0 * 10 + $0.1 }
                   },
                   reference: { events, _ in
                       var latest: [Int?] = [nil, nil]
                       var completed = [false, false]
                       var out: [Event<Int>] = []
                       for (input, event) in Self.grammar(events) {
                           switch event {
                           case .value(let value):
                               latest[input] = value
                               if let first = latest[0], let second = latest[1] {
                                   out.append(.value(first * 10 + second))
                               }
                           case .error(let code): return out + [.error(code)]
                           case .complete:
                               completed[input] = true
                               if latest[input] == nil || completed.allSatisfy({ $0 }) { return out + [.complete] }
                           }
                       }
                       return out
                   })
    }

    // The four-input combineLatest is spelled out (typed slots, specialised); it must behave like the pack form.
    @Test func combineLatestFourInputs() {
        Self.check("combineLatest4", inputs: 4, seed: 9,
                   build: { sources, _ in
                       let combined: Signal<(Int, Int, Int, Int), TestError> =
                           sources[0].combineLatest(sources[1], sources[2], sources[3])
                       return combined.map { $0.0 * 1000 + $0.1 * 100 + $0.2 * 10 + $0.3 }
                   },
                   reference: { events, _ in
                       var latest: [Int?] = [nil, nil, nil, nil]
                       var completed = [false, false, false, false]
                       var out: [Event<Int>] = []
                       for (input, event) in Self.grammar(events) {
                           switch event {
                           case .value(let value):
                               latest[input] = value
                               let values = latest.compactMap { $0 }
                               if values.count == 4 {
                                   out.append(.value(values[0] * 1000 + values[1] * 100 + values[2] * 10 + values[3]))
                               }
                           case .error(let code): return out + [.error(code)]
                           case .complete:
                               completed[input] = true
                               if latest[input] == nil || completed.allSatisfy({ $0 }) { return out + [.complete] }
                           }
                       }
                       return out
                   })
    }
}
