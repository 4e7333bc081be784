import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// The seed's "监听节点值" and "多线程下的监听" sections.
@Suite("Seed: listening")
struct SeedListeningTests {
    @Test func listeningSkipsEmptyAndStopsWithTheOwner() {
        let lines = Recorder<String>()
        let node = MutableNode(1)
        do {
            let listener = CancelBag()
            node.listened(by: listener).withBlock { lines.record("下一个值是 \($0)") }
            node.value = 2
            node.clean()
            node.value = 3
        }
        node.value = 4  // the listener is gone, as when the seed's main-queue block runs
        #expect(lines.values == ["下一个值是 1", "下一个值是 2", "下一个值是 3"])
        #expect(!node.hasListener)
    }

    @Test func contextBlock() {
        let lines = Recorder<String>()
        let node = MutableNode(1)
        let listener = CancelBag()
        node.listened(by: listener).withContextBlock { next, context in
            lines.record("下一个值是 \(next)，上下文是 \(context.map { "\($0)" } ?? "(null)")")
        }
        node.set(2, context: "嘿，是我")
        #expect(lines.values == ["下一个值是 1，上下文是 (null)", "下一个值是 2，上下文是 嘿，是我"])
    }

    @Test func withTargetHoldsTheTargetWeakly() {
        final class View: @unchecked Sendable {
            let removed = Recorder<Int>()
            func removeFromSuperview(_ value: Int) { removed.record(value) }
        }
        let node = MutableNode(1)
        let bag = CancelBag()
        var view: View? = View()
        let removed = view!.removed
        weak let weakView = view
        node.listened(by: bag).withTarget(view!) { view, value in view.removeFromSuperview(value) }
        node.value = 2
        view = nil
        #expect(weakView == nil)
        node.value = 3
        #expect(removed.values == [1, 2])
        #expect(!node.hasListener)
    }

    @Test func tokenCancelsJustThatListener() {
        let node = MutableNode(1)
        let bag = CancelBag()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let token = node.listened(by: bag).withBlock { first.record($0) }
        node.listened(by: bag).withBlock { second.record($0) }
        token.cancel()
        node.value = 2
        #expect(first.values == [1])
        #expect(second.values == [1, 2])
    }

    @Test func listenersRunOnTheSettersThread() async {
        let lines = Recorder<String>()
        let node = MutableNode(1)
        let bag = CancelBag()
        let flag = ThreadFlag()
        flag.set("这是主线程")
        node.listened(by: bag).withBlock { lines.record("\(flag.get())：现在收到了 \($0)") }
        lines.record("node 已经进行监听了")
        node.value = 2
        lines.record("node 值已经设置为 2 了")
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                flag.set("这是某个子线程")
                node.value = 3
                lines.record("node 值已经设置为 3 了")
                continuation.resume()
            }
        }
        #expect(lines.values == [
            "这是主线程：现在收到了 1", "node 已经进行监听了", "这是主线程：现在收到了 2", "node 值已经设置为 2 了",
            "这是某个子线程：现在收到了 3", "node 值已经设置为 3 了",
        ])
    }

    @Test func listenersOnSchedulers() {
        let lines = Recorder<String>()
        let main = TestScheduler()
        let global = TestScheduler()
        let node = MutableNode(1)
        let bag = CancelBag()
        node.listened(by: bag).withBlock(on: main) { lines.record("[监听1]主线程：现在收到了 \($0)") }
        node.listened(by: bag).withBlock(on: global) { lines.record("[监听2]子线程：现在收到了 \($0)") }
        lines.record("node 已经进行监听了")
        global.run()
        node.value = 2
        lines.record("node 值已经设置为 2 了")
        global.run()
        node.value = 3
        lines.record("node 值已经设置为 3 了")
        global.run()
        main.run()
        #expect(lines.values == [
            "node 已经进行监听了", "[监听2]子线程：现在收到了 1", "node 值已经设置为 2 了", "[监听2]子线程：现在收到了 2",
            "node 值已经设置为 3 了", "[监听2]子线程：现在收到了 3", "[监听1]主线程：现在收到了 1",
            "[监听1]主线程：现在收到了 2", "[监听1]主线程：现在收到了 3",
        ])
    }
}

/// A per-thread label, standing in for the seed's `threadDictionary[@"flag"]`.
final class ThreadFlag: @unchecked Sendable {
    // Guarded by the `Locked` lock.
    private let byThread = Locked<[UInt: String]>([:])

    func set(_ label: String) {
        let thread = currentThreadID()
        byThread.withLock { $0[thread] = label }
    }

    func get() -> String {
        let thread = currentThreadID()
        return byThread.withLock { $0[thread] ?? "?" }
    }
}

#if canImport(Glibc)
import Glibc
func currentThreadID() -> UInt { UInt(pthread_self()) }
#elseif canImport(Darwin)
import Darwin
func currentThreadID() -> UInt { UInt(bitPattern: pthread_self()) }
#endif
