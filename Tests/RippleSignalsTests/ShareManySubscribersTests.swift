import RippleCore
import RippleTesting
import Testing
@testable import RippleSignals

/// A shared signal and an observable property with thousands of subscribers that leave one by one, in any order
/// (each left through a pass over, or a shift of, every other subscriber: n² in all; BENCHMARKS.md "Subscriber lists
/// that lose members one by one").
@Suite("share() and ObservableProperty with many subscribers")
struct ShareManySubscribersTests {
    /// Which of `count` subscribers leave, in what order: all but the last three from the first, all but the first
    /// three from the last, or every third.
    static func leaving(_ count: Int, _ order: String) -> [Int] {
        switch order {
        case "first first": Array(0..<count - 3)
        case "last first": Array((3..<count).reversed())
        default: Array(stride(from: 0, to: count, by: 3))
        }
    }

    @Test("values reach the subscribers still there, in subscription order, whatever order the others left in",
          arguments: ["first first", "last first", "every third"])
    func leavingInAnyOrder(_ order: String) {
        let source = ManualSource<Int, TestError>()
        let shared = source.signal.share()
        let heard = Recorder<Int>()
        let count = 3_000
        let disposers = (0..<count).map { index in
            shared.subscribe(value: { heard.record(index * 1_000 + $0) }, error: { _ in })
        }
        let leaving = Self.leaving(count, order)
        for index in leaving { disposers[index].dispose() }
        let left = Set(leaving)
        let staying = (0..<count).filter { !left.contains($0) }
        source.send(7)
        let heardInOrder = heard.values == staying.map { $0 * 1_000 + 7 }
        #expect(heardInOrder, "\(heard.count) values heard, \(staying.count) expected")
        #expect(source.subscriptions == 1)
        #expect(source.disposals == 0)
        for index in staying { disposers[index].dispose() }
        // The last one out disconnects.
        #expect(source.disposals == 1)
    }

    @Test("ObservableProperty: a value reaches the subscribers still there, in subscription order",
          arguments: ["first first", "last first", "every third"])
    func propertySubscribersLeavingInAnyOrder(_ order: String) {
        let property = ObservableProperty(0)
        let heard = Recorder<Int>()
        let count = 3_000
        let disposers = (0..<count).map { index in property.signal.subscribe { heard.record(index * 1_000 + $0) } }
        let leaving = Self.leaving(count, order)
        for index in leaving { disposers[index].dispose() }
        let left = Set(leaving)
        property.value = 7
        // Each heard the current value as it subscribed, then those still there hear 7.
        let expected = (0..<count).map { $0 * 1_000 } + (0..<count).filter { !left.contains($0) }.map { $0 * 1_000 + 7 }
        let heardInOrder = heard.values == expected
        #expect(heardInOrder, "\(heard.count) values heard, \(expected.count) expected")
        // Kept to here: a subscription whose disposer is freed ends (in release the array's last use was above).
        withExtendedLifetime(disposers) {}
    }
}
