import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The edge store changes in place outside propagation: appends use spare room, a cancel leaves a tombstone that is
/// squeezed out later. Order, liveness and release must not notice.
@Suite("Edge store: in-place attach and cancel")
struct EdgeStoreTests {
    @Test(arguments: ["attach order", "reverse order", "every third, then the rest"])
    func cancellingInAnyOrderKeepsTheOthersInRegistrationOrder(_ order: String) {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        let tokens = (0..<100).map { index in node.listened(by: bag).withBlock { _ in heard.record(index) } }
        let sequence: [Int]
        switch order {
        case "attach order": sequence = Array(0..<100)
        case "reverse order": sequence = Array((0..<100).reversed())
        default: sequence = Array(stride(from: 0, to: 100, by: 3)) + (0..<100).filter { $0 % 3 != 0 }
        }
        var remaining = Set(0..<100)
        for (step, index) in sequence.enumerated() {
            tokens[index].cancel()
            remaining.remove(index)
            if step % 7 == 0 {
                heard.reset()
                node.value = step
                #expect(heard.values == remaining.sorted())
                #expect(node.hasListener == !remaining.isEmpty)
            }
        }
        heard.reset()
        node.value = -1
        #expect(heard.values.isEmpty)
        #expect(!node.hasListener)
    }

    @Test func listenersAttachedAndCancelledDuringAPropagationAreHandled() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let late = Locked<(any CancelToken)?>(nil)
        let first = node.listened(by: bag).withBlock { value in
            heard.record("first \(value)")
            if value == 1 {
                late.withLock { $0 = node.listened(by: bag).withBlock { heard.record("late \($0)") } }
            }
        }
        node.listened(by: bag).withBlock { heard.record("second \($0)") }
        heard.reset()
        node.value = 1
        first.cancel()
        node.value = 2
        #expect(heard.values == ["first 1", "late 1", "second 1", "second 2", "late 2"])
        late.value?.cancel()
    }
}
