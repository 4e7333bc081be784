import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Synchronization
import Testing

/// A transaction's first listener call is made by the committing thread itself, after the commit, instead of being
/// queued (see `ParkedCall.swift`). These pin down that it still runs where the queue would have run it: before the
/// transaction's other calls, before later transactions' calls, never beside another call of the graph; and that its
/// value survives a transaction the call itself starts.
@Suite("A transaction's first listener call")
struct ParkedCallTests {
    @Test func theSetNodesListenerRunsFirstThenDownstreamThenARe_entrantSetsCalls() {
        let node = MutableNode(0)
        let doubled = node.map { $0 * 10 }
        let bag = CancelBag()
        let heard = Recorder<String>()
        node.listened(by: bag).withBlock { value in
            heard.record("node \(value)")
            // A set from the call: a later transaction, whose calls follow every call of this one.
            if value == 1 { node.value = 2 }
        }
        doubled.listened(by: bag).withBlock { heard.record("doubled \($0)") }
        heard.reset()
        node.value = 1
        #expect(heard.values == ["node 1", "doubled 10", "node 2", "doubled 20"])
    }

    @Test func aCancelledListenerIsNotCalledAndNothingIsKept() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<Int>()
        var token: (any CancelToken)? = node.listened(by: bag).withBlock { heard.record($0) }
        let edge = WeakReference(token! as AnyObject)
        node.value = 1
        token?.cancel()
        token = nil
        node.value = 2
        #expect(heard.values == [0, 1])
        // The bag keeps cancelled entries until it prunes them; emptied, nothing else may keep the edge (the parked
        // call retained it).
        bag.cancel()
        #expect(edge.object == nil, "a cancelled listener's edge was kept alive")
    }

    @Test func aSetWithAContextIsHeardWithIt() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        node.listened(by: bag).withContextBlock { value, context in heard.record("\(value) \(context as? String ?? "-")") }
        node.set(1, context: "ctx")
        node.value = 2
        #expect(heard.values == ["0 -", "1 ctx", "2 -"])
    }

    /// Thread A's set calls the listener itself and holds it there until thread B has set the node too. B's call
    /// must wait behind A's (the queue's order): it runs after A's returns, not beside it on thread B.
    @Test(arguments: 0..<20) func anotherThreadsSetDuringTheCallWaitsBehindIt(round: Int) {
        let node = MutableNode(0)
        checkASecondSetWaits(setting: node, listening: node, heldAt: 1, expected: [0, 1, 2])
    }

    /// The first call comes from a node downstream of the set one (which nobody listens to): the same order.
    @Test func aDownstreamNodesCallWaitsTheSameWay() {
        let node = MutableNode(0)
        checkASecondSetWaits(setting: node, listening: node.map { $0 * 10 }, heldAt: 10, expected: [0, 10, 20])
    }

    /// Thread A sets `node` to 1; `listened`'s listener holds its call of `heldAt` until thread B has set `node` to
    /// 2. Checks that the listener heard `expected` and never ran two calls at once.
    private func checkASecondSetWaits(setting node: MutableNode<Int>, listening listened: Node<Int>, heldAt: Int,
                                      expected: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        let bag = CancelBag()
        let heard = Recorder<Int>()
        let inCall = Atomic<Bool>(false)
        let overlapped = Atomic<Bool>(false)
        let entered = DispatchSemaphore(value: 0)
        let bHasSet = DispatchSemaphore(value: 0)
        listened.listened(by: bag).withBlock { value in
            if inCall.exchange(true, ordering: .sequentiallyConsistent) {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            heard.record(value)
            if value == heldAt {
                entered.signal()
                bHasSet.wait()
            }
            inCall.store(false, ordering: .sequentiallyConsistent)
        }
        let a = startThread { node.value = 1 }
        let b = startThread {
            entered.wait()
            node.value = 2
            bHasSet.signal()
        }
        a.wait()
        b.wait()
        #expect(heard.values == expected, sourceLocation: sourceLocation)
        let callsOverlapped = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!callsOverlapped, "two calls of one listener overlapped", sourceLocation: sourceLocation)
    }

    /// Two threads setting one node with one listener, many times (one the even values, one the odd, each in
    /// increasing order): every set heard once, each thread's in its order, no call beside another, and the last
    /// call heard the value the node rests at.
    @Test func twoThreadsSettingOneListenedNodeKeepOneOrder() {
        let node = MutableNode(-1)
        let bag = CancelBag()
        let heard = Locked<[Int]>([])
        let inCall = Atomic<Bool>(false)
        let overlapped = Atomic<Bool>(false)
        node.listened(by: bag).withBlock { value in
            if inCall.exchange(true, ordering: .sequentiallyConsistent) {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            heard.withLock { $0.append(value) }
            inCall.store(false, ordering: .sequentiallyConsistent)
        }
        let sets = 20_000
        onThreads(2) { thread in
            for index in 0..<sets { node.value = 2 * index + thread }
        }
        let values = heard.value
        #expect(values.count == 2 * sets + 1)
        #expect(values.dropFirst().filter { $0 % 2 == 0 } == Array(stride(from: 0, to: 2 * sets, by: 2)))
        #expect(values.dropFirst().filter { $0 % 2 == 1 } == Array(stride(from: 1, to: 2 * sets, by: 2)))
        #expect(values.last == node.value)
        let callsOverlapped = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!callsOverlapped, "two calls of one listener overlapped")
    }

    /// The first call sets a node of another graph, whose transaction makes its own first call the same way: each
    /// hears its own value (heap-allocated strings, so a value overwritten or freed early shows, under ASan too).
    @Test func aCallThatStartsAnotherGraphsTransactionKeepsItsValue() {
        let first = MutableNode("")
        let second = MutableNode("")
        let bag = CancelBag()
        let heard = Recorder<String>()
        first.listened(by: bag).withBlock { value in
            second.value = value.uppercased() + String(repeating: "!", count: 40)
            heard.record("first " + value)
        }
        second.listened(by: bag).withBlock { heard.record("second " + $0) }
        heard.reset()
        let long = String(repeating: "ripple ", count: 10)
        first.value = long
        #expect(heard.values == ["second " + long.uppercased() + String(repeating: "!", count: 40), "first " + long])
    }

    /// A value too large to wait outside the queue is queued: the order is the same.
    @Test func aLargeValuesCallIsQueuedInTheSameOrder() {
        struct Large: Equatable, Sendable {
            var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0
        }
        let node = MutableNode(Large())
        let bag = CancelBag()
        let heard = Recorder<String>()
        node.listened(by: bag).withBlock { value in
            heard.record("node \(value.i)")
            if value.i == 1 { node.value = Large(i: 2) }
        }
        node.map { $0.i * 10 }.listened(by: bag).withBlock { heard.record("tenfold \($0)") }
        heard.reset()
        node.value = Large(i: 1)
        #expect(heard.values == ["node 1", "tenfold 10", "node 2", "tenfold 20"])
    }

    /// The first call is parked, then a transform of the same transaction links a node of another graph whose
    /// listener thread B is still inside: the graphs are one now, so the parked call waits for B's call, like a queued
    /// one (it runs on B, after B's call returns), rather than beside it on A.
    @Test(arguments: 0..<10) func aParkedCallWaitsForTheBatchOfAGraphMergedInAfterIt(round: Int) {
        let other = MutableNode(0)
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = Recorder<String>()
        let inCall = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        other.listened(by: bag).withBlock { value in
            if inCall.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            heard.record("other \(value)")
            if value == 1 {
                entered.signal()
                release.wait()
            }
            inCall.subtract(1, ordering: .sequentiallyConsistent)
        }
        node.listened(by: bag).withBlock { value in
            if inCall.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            heard.record("node \(value)")
            inCall.subtract(1, ordering: .sequentiallyConsistent)
        }
        let follower = node.map { $0 }
        let links = Locked<[any CancelToken]>([])
        // Settles after `node`'s listener call is parked; links `other` into `follower`, merging the graphs.
        let linker = node.map { value -> Int in
            if value == 1 { links.withLock { $0.append(follower.link(to: other.map { $0 &* 0 })) } }
            return value
        }
        let b = startThread { other.value = 1 }
        entered.wait()
        let a = startThread { node.value = 1 }
        a.wait()
        let heardBeforeRelease = heard.values
        release.signal()
        b.wait()
        #expect(heardBeforeRelease == ["other 0", "node 0", "other 1"],
                "the parked call ran beside the merged graph's call")
        #expect(heard.values == ["other 0", "node 0", "other 1", "node 1"])
        let callsOverlapped = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!callsOverlapped, "two listener calls of one graph overlapped")
        extendLifetime(linker)
        links.withLock { $0.forEach { $0.cancel() } }
    }
}
