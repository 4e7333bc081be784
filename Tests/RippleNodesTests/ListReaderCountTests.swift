import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// A call of a node's several listeners reads the node's edge list, counted in as a reader while it waits and counted
/// out once its thread ends the batch (see `EdgeList.addQueuedReader()`). Whichever way the call runs — parked for
/// the committing thread, queued behind another call, run inside another graph's call, or queued by another thread —
/// every list is counted out at rest: a count left behind makes every later attach and cancel copy the list.
@Suite("Calls of several listeners count their list out, however they run")
struct ListReaderCountTests {
    /// The transaction's only call: parked, run by the committing thread.
    @Test func aParkedCallIsCountedOut() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        for index in 0..<3 { node.listened(by: bag).withBlock { heard.record("\(index) \($0)") } }
        heard.reset()
        node.value = 1
        node.value = 2
        #expect(heard.values == ["0 1", "1 1", "2 1", "0 2", "1 2", "2 2"])
        #expect(node.queuedListReaders == 0)
    }

    /// The first call parks, the next node's call queues behind it: both lists are counted out, by the drain.
    @Test func aParkedCallWithCallsQueuedBehindIsCountedOut() {
        let node = MutableNode(0)
        let tenfold = node.map { $0 * 10 }
        let bag = CancelBag()
        let heard = Recorder<String>()
        for index in 0..<2 { node.listened(by: bag).withBlock { heard.record("a\(index) \($0)") } }
        for index in 0..<2 { tenfold.listened(by: bag).withBlock { heard.record("m\(index) \($0)") } }
        heard.reset()
        node.value = 1
        #expect(heard.values == ["a0 1", "a1 1", "m0 10", "m1 10"])
        #expect(node.queuedListReaders == 0)
        #expect(tenfold.queuedListReaders == 0)
    }

    /// Calls that set a node of their own graph (a later transaction: `echo`'s listeners hear it after this one's
    /// calls) and of another graph (whose calls run inside this one), and cancel a neighbour, leave every list counted
    /// out; the listeners left hear every set in order.
    @Test func callsThatSetCancelAndDrainAnotherGraphLeaveNoReader() {
        let a = MutableNode(0)
        let echo = MutableNode(0)
        let other = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let doomed = Locked<(any CancelToken)?>(nil)
        a.listened(by: bag).withBlock { value in
            heard.record("a0 \(value)")
            echo.value = value
            other.value = value * 100
        }
        a.listened(by: bag).withBlock { value in
            heard.record("a1 \(value)")
            doomed.withLock { $0.take() }?.cancel()
        }
        doomed.withLock { $0 = a.listened(by: bag).withBlock { heard.record("a2 \($0)") } }
        echo.link(to: a)
        for index in 0..<2 { echo.listened(by: bag).withBlock { heard.record("e\(index) \($0)") } }
        for index in 0..<3 { other.listened(by: bag).withBlock { heard.record("o\(index) \($0)") } }
        heard.reset()
        a.value = 1
        #expect(heard.values == ["a0 1", "o0 100", "o1 100", "o2 100", "a1 1", "e0 1", "e1 1", "e0 1", "e1 1"])
        heard.reset()
        a.value = 2
        #expect(heard.values == ["a0 2", "o0 200", "o1 200", "o2 200", "a1 2", "e0 2", "e1 2", "e0 2", "e1 2"])
        #expect(a.queuedListReaders == 0)
        #expect(echo.queuedListReaders == 0)
        #expect(other.queuedListReaders == 0)
    }

    /// Two threads set two graphs, each with several listeners, and one links them mid-way (the merged graph's
    /// batches may still be in flight when the other thread's call parks): at rest no list is left counted in, and
    /// every listener rests on its node's value.
    @Test func twoThreadsSettingGraphsTheyMergeLeaveNoReader() {
        for _ in 0..<2_000 {
            let a = MutableNode(0)
            let b = MutableNode(0)
            let bag = CancelBag()
            let lastA = Locked<[Int]>(Array(repeating: -1, count: 3))
            let lastB = Locked<[Int]>(Array(repeating: -1, count: 3))
            for index in 0..<3 {
                a.listened(by: bag).withBlock { value in lastA.withLock { $0[index] = value } }
                b.listened(by: bag).withBlock { value in lastB.withLock { $0[index] = value } }
            }
            let link = Locked<(any CancelToken)?>(nil)
            onThreads(2) { thread in
                if thread == 0 {
                    for value in 1...40 { a.value = value }
                } else {
                    for value in 1...20 { b.value = -value }
                    link.withLock { $0 = b.link(to: a) }
                    for value in 41...60 { a.value = value }
                }
            }
            #expect(a.queuedListReaders == 0)
            #expect(b.queuedListReaders == 0)
            #expect(lastA.value == Array(repeating: a.value, count: 3))
            #expect(lastB.value == Array(repeating: b.value, count: 3))
            #expect(b.value == a.value)
            withExtendedLifetime(link) {}
        }
    }
}
