import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// One step of a random scenario: set input `input` to `value`, or clean it when `value` is nil.
struct Step: CustomStringConvertible {
    let input: Int
    let value: Int?
    var description: String { "in\(input)=\(value.map(String.init) ?? "clean")" }
}

struct Scenario {
    let initial: [Int?]
    let steps: [Step]

    static func random(inputs: Int, using generator: inout SplitMix64) -> Scenario {
        let initial = (0..<inputs).map { _ in Bool.random(using: &generator) ? Int.random(in: 0..<5, using: &generator) : nil }
        let count = Int.random(in: 0..<30, using: &generator)
        let steps = (0..<count).map { _ in
            Step(input: Int.random(in: 0..<inputs, using: &generator),
                 value: Int.random(in: 0..<10, using: &generator) == 0 ? nil : Int.random(in: 0..<5, using: &generator))
        }
        return Scenario(initial: initial, steps: steps)
    }

    /// Every non-empty value each input holds, in the order the inputs receive them (initial values first).
    var events: [(input: Int, value: Int)] {
        initial.enumerated().compactMap { index, value in value.map { (index, $0) } }
            + steps.compactMap { step in step.value.map { (step.input, $0) } }
    }
}

@Suite("Model-based: operators against a reference model")
struct ModelBasedTests {
    static let runs = 200

    /// Runs `runs` random scenarios through Ripple (`build` wires the inputs into one output node) and through
    /// `model` (the expected listener output, from the scenario's events), comparing what a listener receives.
    func check(_ name: String, inputs: Int, seed: UInt64,
               build: ([MutableNode<Int>]) -> Node<String>,
               model: (Scenario) -> [String]) {
        var generator = SplitMix64(seed: seed)
        for run in 0..<Self.runs {
            let scenario = Scenario.random(inputs: inputs, using: &generator)
            let nodes = scenario.initial.map { value in value.map { MutableNode($0) } ?? MutableNode<Int>() }
            let bag = CancelBag()
            let received = Recorder<String>()
            build(nodes).listened(by: bag).withBlock { received.record($0) }
            for step in scenario.steps { nodes[step.input].value = step.value }
            let expected = model(scenario)
            #expect(received.values == expected, "\(name) run \(run): \(scenario.initial) \(scenario.steps)")
            if received.values != expected { return }
        }
    }

    @Test func map() {
        check("map", inputs: 1, seed: 1, build: { $0[0].map { "\($0 * 3)" } },
              model: { $0.events.map { "\($0.value * 3)" } })
    }

    @Test func filter() {
        check("filter", inputs: 1, seed: 2, build: { $0[0].filter { $0 % 2 == 0 }.map { "\($0)" } },
              model: { $0.events.filter { $0.value % 2 == 0 }.map { "\($0.value)" } })
    }

    @Test func distinctUntilChanged() {
        check("distinctUntilChanged", inputs: 1, seed: 3,
              build: { $0[0].distinctUntilChanged().map { "\($0)" } },
              model: { scenario in
                  var last: Int?
                  var out: [String] = []
                  for event in scenario.events where event.value != last {
                      last = event.value
                      out.append("\(event.value)")
                  }
                  return out
              })
    }

    @Test func skip() {
        check("skip", inputs: 1, seed: 4, build: { $0[0].skip(3).map { "\($0)" } },
              model: { $0.events.dropFirst(3).map { "\($0.value)" } })
    }

    @Test func take() {
        check("take", inputs: 1, seed: 5, build: { $0[0].take(4).map { "\($0)" } },
              model: { $0.events.prefix(4).map { "\($0.value)" } })
    }

    @Test func scan() {
        check("scan", inputs: 1, seed: 6, build: { $0[0].scan(start: 100) { $0 - $1 }.map { "\($0)" } },
              model: { scenario in
                  var total = 100
                  return scenario.events.map { event in
                      total -= event.value
                      return "\(total)"
                  }
              })
    }

    @Test func merge() {
        check("merge", inputs: 3, seed: 7, build: { Node.merge($0[0], $0[1], $0[2]).map { "\($0)" } },
              model: { scenario in
                  // The initial pushes collapse into one starting value: the last non-empty input's.
                  let initial = scenario.initial.compactMap { $0 }.last.map { ["\($0)"] } ?? []
                  return initial + scenario.steps.compactMap { $0.value.map { "\($0)" } }
              })
    }

    @Test func combine() {
        check("combine", inputs: 3, seed: 8, build: { Node.combine($0[0], $0[1], $0[2]).mapEach { "\($0)\($1)\($2)" } },
              model: { scenario in
                  var latest: [Int?] = [nil, nil, nil]
                  var out: [String] = []
                  for event in scenario.events {
                      latest[event.input] = event.value
                      if latest.allSatisfy({ $0 != nil }) { out.append(latest.map { "\($0!)" }.joined()) }
                  }
                  // Linking pushes the initial values one by one, so the model sees them as ordinary events.
                  return out
              })
    }

    @Test func zip() {
        check("zip", inputs: 2, seed: 9, build: { Node.zip($0[0], $0[1]).mapEach { "\($0)-\($1)" } },
              model: { scenario in
                  var queues: [[Int]] = [[], []]
                  var out: [String] = []
                  for event in scenario.events {
                      queues[event.input].append(event.value)
                      if !queues[0].isEmpty && !queues[1].isEmpty {
                          out.append("\(queues[0].removeFirst())-\(queues[1].removeFirst())")
                      }
                  }
                  return out
              })
    }
}
