import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The seed's "基本变换" section.
@Suite("Seed: basic transforms")
struct SeedTransformTests {
    @Test func map() {
        let nodeA = MutableNode(1)
        let nodeB = nodeA.map { String($0) }
        #expect(nodeB.value == "1")
        nodeA.value = 2
        #expect(nodeB.value == "2")
    }

    @Test func mapReplace() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let nodeA = MutableNode(1)
        let nodeB = nodeA.mapReplace("叮铃，有值啦！")
        nodeB.listened(by: bag).withBlock { lines.record($0) }
        nodeA.value = 2
        nodeA.value = 3
        #expect(lines.values == ["叮铃，有值啦！", "叮铃，有值啦！", "叮铃，有值啦！"])
    }

    @Test func mapToOptional() {
        let nodeA = MutableNode("1")
        let nodeB = nodeA.map { Int($0) }
        #expect(nodeB.value == .some(1))
        nodeA.value = "x"
        #expect(nodeB.value == .some(nil))
    }

    @Test func filter() {
        let nodeA = MutableNode(1)
        let nodeB = nodeA.filter { $0 > 5 }
        #expect(nodeB.value == nil)
        nodeA.value = 6
        #expect(nodeB.value == 6)
        nodeA.value = 3
        #expect(nodeB.value == 6)
    }

    @Test func ignoreAndSelect() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let nodeA = MutableNode(1)
        let nodeB = nodeA.ignore(1)
        let nodeC = nodeA.select(1)
        nodeB.listened(by: bag).withBlock { lines.record("NodeB 收到 \($0)") }
        nodeC.listened(by: bag).withBlock { lines.record("NodeC 收到 \($0)") }
        nodeA.value = 12
        nodeA.value = 1
        nodeA.value = 7
        #expect(lines.values == ["NodeC 收到 1", "NodeB 收到 12", "NodeC 收到 1", "NodeB 收到 7"])
    }

    @Test func ignoreNilEqualsNil() {
        let nodeA = MutableNode<Int?>(nil)
        let nodeB = nodeA.ignore(nil)
        #expect(nodeB.isEmpty)
        nodeA.value = .some(3)
        #expect(nodeB.value == .some(3))
    }

    @Test func distinctUntilChanged() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let nodeA = MutableNode(1)
        let nodeB = nodeA.distinctUntilChanged()
        nodeB.listened(by: bag).withBlock { lines.record("收到 \($0)") }
        for value in [1, 2, 2, 1, 2] { nodeA.value = value }
        #expect(lines.values == ["收到 1", "收到 2", "收到 1", "收到 2"])
    }

    /// EasyReact's `throttle:queue:` example, through Ripple's `debounce` (the seed's throttle is a debounce).
    @Test func seedThrottleIsDebounce() {
        let lines = Recorder<String>()
        let bag = CancelBag()
        let scheduler = TestScheduler()
        let inputNode = MutableNode<String>()
        let searchNode = inputNode.debounce(.seconds(1), on: scheduler)
        searchNode.listened(by: bag).withBlock { lines.record("想要搜索的是 \($0)") }
        for text in ["h", "he", "hel", "hell", "hello"] { inputNode.value = text }
        scheduler.advance(by: .milliseconds(1200))
        for text in ["hello ", "hello w", "hello wo", "hello wor", "hello worl", "hello world"] {
            inputNode.value = text
        }
        scheduler.advance(by: .seconds(1))
        #expect(lines.values == ["想要搜索的是 hello", "想要搜索的是 hello world"])
    }

    /// The same feed as `Signal.throttle`'s test: 1…5 every 30 ms, a 100 ms window → 1 at once, 4 and 5 at the
    /// ends of the two windows.
    @Test func throttleRateLimitsLikeSignalThrottle() {
        let scheduler = TestScheduler()
        let bag = CancelBag()
        let input = MutableNode<Int>()
        let heard = Recorder<Int>()
        input.throttle(.milliseconds(100), on: scheduler).listened(by: bag).withBlock { heard.record($0) }
        for value in 1...5 {
            input.value = value
            scheduler.advance(by: .milliseconds(30))
        }
        scheduler.advance(by: .milliseconds(300))
        #expect(heard.values == [1, 4, 5])
        let first = MutableNode<Int>()
        let firstHeard = Recorder<Int>()
        first.throttle(.milliseconds(100), on: scheduler, latest: false).listened(by: bag).withBlock {
            firstHeard.record($0)
        }
        for value in 1...5 {
            first.value = value
            scheduler.advance(by: .milliseconds(30))
        }
        scheduler.advance(by: .milliseconds(300))
        #expect(firstHeard.values == [1, 2, 5])
    }

    @Test func debounceAlsoDebouncesTheInitialValue() {
        let scheduler = TestScheduler()
        let input = MutableNode("a")
        let throttled = input.debounce(.seconds(1), on: scheduler)
        #expect(throttled.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(throttled.value == "a")
    }

    @Test func skip() {
        let nodeA = MutableNode<Int>()
        let nodeB = nodeA.skip(2)
        #expect(nodeB.value == nil)
        nodeA.value = 1
        #expect(nodeB.value == nil)
        nodeA.value = 2
        #expect(nodeB.value == nil)
        nodeA.value = 3
        #expect(nodeB.value == 3)
    }

    @Test func take() {
        let nodeA = MutableNode<Int>()
        let nodeB = nodeA.take(2)
        #expect(nodeB.value == nil)
        nodeA.value = 1
        #expect(nodeB.value == 1)
        nodeA.value = 2
        #expect(nodeB.value == 2)
        nodeA.value = 3
        #expect(nodeB.value == 2)
    }

    @Test func deliverOn() {
        let queue = TestScheduler()
        let main = TestScheduler()
        let onMain = Recorder<Bool>()
        let mainFlag = Locked(false)
        let bag = CancelBag()
        let nodeA = MutableNode<Double>()
        let nodeB = nodeA.deliver(on: queue).map { $0 }
        let nodeC = nodeB.deliver(on: main).map { value -> Double in
            onMain.record(mainFlag.value)
            return value
        }
        let received = Recorder<Double>()
        nodeC.listened(by: bag).withBlock { received.record($0) }
        nodeA.value = 9
        nodeA.value = 3
        #expect(nodeB.isEmpty && nodeC.isEmpty)
        queue.run()
        #expect(nodeB.value == 3 && nodeC.isEmpty)
        mainFlag.withLock { $0 = true }
        main.run()
        #expect(received.values == [9, 3])
        #expect(onMain.values == [true, true])
    }

    @Test func delay() {
        let scheduler = TestScheduler()
        let nodeA = MutableNode(0)
        let nodeB = nodeA.delay(.seconds(1), on: scheduler)
        let nodeC = nodeA.delay(.seconds(2), on: scheduler)
        #expect(nodeB.isEmpty)
        nodeA.value = 1
        scheduler.advance(by: .milliseconds(999))
        #expect(nodeB.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(nodeB.value == 1 && nodeC.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(nodeC.value == 1)
    }

    @Test func scan() {
        let lines = Recorder<[Int]>()
        let bag = CancelBag()
        let nodeA = MutableNode<Int>()
        let nodeB = nodeA.scan(start: [Int]()) { last, current in last + [current] }
        nodeB.listened(by: bag).withBlock { lines.record($0) }
        for value in 1...5 { nodeA.value = value }
        #expect(lines.values == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]])
    }

    @Test func scanWithIndex() {
        let nodeA = MutableNode(10)
        let nodeB = nodeA.scan(start: "") { last, current, index in last + "\(index):\(current) " }
        nodeA.value = 20
        #expect(nodeB.value == "0:10 1:20 ")
    }
}
