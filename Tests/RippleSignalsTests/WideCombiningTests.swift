import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// `zip` and `combineLatest` over thousands of inputs: the same events as over three. (Each value and completion
/// once asked every input, which made `n` inputs cost n²; BENCHMARKS.md "Signals: zip and combineLatest over many
/// inputs".)
@Suite("zip and combineLatest over many inputs")
struct WideCombiningTests {
    static let width = 3_000

    /// Input `i` sends `i`, then `i + 1`, then completes.
    static func twoValues(_ index: Int) -> Signal<Int, TestError> {
        Signal { subscriber in
            subscriber.send(index)
            subscriber.send(index + 1)
            subscriber.sendComplete()
            return Disposer {}
        }
    }

    @Test("zip: one array per round of values, then the completion once a completed input has nothing queued")
    func zipWide() {
        let recorder = Recorder<Event<[Int]>>()
        Signal.zip((0..<Self.width).map(Self.twoValues)).record(into: recorder)
        #expect(recorder.values == [.value(Array(0..<Self.width)), .value(Array(1...Self.width)), .complete])
    }

    @Test("zip: an input that completes with nothing queued ends it, dropping the others' queued values")
    func zipWideEndsEarly() {
        let recorder = Recorder<Event<[Int]>>()
        var inputs = (0..<Self.width).map(Self.twoValues)
        inputs.insert(.empty, at: Self.width / 2)
        Signal.zip(inputs).record(into: recorder)
        #expect(recorder.values == [.complete])
    }

    @Test("combineLatest: the array once every input has sent, then on every value; completes when all have")
    func combineLatestWide() {
        let recorder = Recorder<Event<[Int]>>()
        Signal.combineLatest((0..<Self.width).map(Self.twoValues)).record(into: recorder)
        // Input i sends both its values before input i + 1 subscribes: the first array already holds every earlier
        // input's second value.
        let first = Array(1..<Self.width) + [Self.width - 1]
        let second = Array(1...Self.width)
        #expect(recorder.values == [.value(first), .value(second), .complete])
    }

    @Test("combineLatest: an input that completes without a value ends it at once")
    func combineLatestWideEndsEarly() {
        let recorder = Recorder<Event<[Int]>>()
        var inputs = (0..<Self.width).map(Self.twoValues)
        inputs.append(.empty)
        Signal.combineLatest(inputs).record(into: recorder)
        #expect(recorder.values == [.complete])
    }
}
