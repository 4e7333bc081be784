import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// Something a transform's closure holds, so a test can see when the transform (and the edge list holding it) is
/// freed.
private final class Tracked: Sendable {}

/// Propagation reads a node's edge list without retaining it; a list the reading thread replaces meanwhile (from a
/// closure it calls) is released when the transaction commits, and other threads wait for the domain (see
/// `EdgeSnapshot.swift`). These tests pin both halves: replaced lists stay alive while read, and are released once
/// the reading ends.
@Suite("Engine: edge lists replaced during propagation")
struct EdgeSnapshotTests {
    @Test func aTransformUnlinkedDuringPropagationLivesUntilItEndsThenIsFreed() {
        let source = MutableNode(0)
        let bag = CancelBag()
        var tracked: Tracked? = Tracked()
        let weakTracked = WeakReference(tracked!)
        let derived = Locked<Node<Int>?>(nil)
        let aliveAfterDropping = Locked<Bool?>(nil)
        // Listeners run after the transaction (engine 3), so the drop happens in a sibling transform, linked first.
        let dropper = source.map { value in
            guard value == 1 else { return value }
            // Frees the derived node, which unlinks its transform from `source` while `source` propagates.
            derived.withLock { $0 = nil }
            aliveAfterDropping.withLock { $0 = weakTracked.object != nil }
            return value
        }
        derived.withLock { [tracked] in
            $0 = source.map {
                _ = tracked
                return $0 * 2
            }
        }
        tracked = nil
        #expect(weakTracked.object != nil)
        source.value = 1
        // The list that still held the transform stayed alive for the propagation reading it...
        #expect(aliveAfterDropping.value == true)
        // ...and went once that propagation was over.
        #expect(weakTracked.object == nil)
        #expect(source.downstreamTransforms.count == 1)
        extendLifetime(dropper)
        bag.cancel()
    }

    @Test func aListenerCancelledByAnotherDuringPropagationHearsNothingMore() {
        let source = MutableNode(0)
        let bag = CancelBag()
        let otherBag = CancelBag()
        let second = Locked<(any CancelToken)?>(nil)
        let heard = Locked<[Int]>([])
        source.listened(by: bag).withBlock { value in
            if value == 1 { second.withLock { $0?.cancel() } }
        }
        second.withLock {
            $0 = source.listened(by: otherBag).withBlock { value in heard.withLock { $0.append(value) } }
        }
        source.value = 1
        source.value = 2
        // Cancelled before its turn in the value it was cancelled in: only the initial value reached it.
        #expect(heard.value == [0])
        bag.cancel()
        #expect(!source.hasListener)
    }

    /// Some threads set a chain's source while others link and drop derived nodes on it, so edge lists are replaced
    /// while other threads read them. Every dropped transform must be freed once the threads are done: a replaced
    /// list left behind would keep one alive.
    @Test(.tags(.stress)) func everyTransformReplacedDuringConcurrentPropagationIsFreed() {
        let source = MutableNode(0)
        let middle = source.map { $0 + 1 }
        let keepAlive = CancelBag()
        let delivered = Locked(0)
        middle.listened(by: keepAlive).withBlock { _ in delivered.withLock { $0 += 1 } }
        let trackers = Locked<[WeakReference<Tracked>]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<400 {
                if thread % 2 == 0 {
                    source.value = index
                } else {
                    let tracked = Tracked()
                    trackers.withLock { $0.append(WeakReference(tracked)) }
                    let bag = CancelBag()
                    let node = thread % 4 == 1 ? source : middle
                    node.map { [tracked] in
                        _ = tracked
                        return $0
                    }.listened(by: bag).withBlock { _ in }
                    bag.cancel()
                }
            }
        }
        #expect(trackers.value.count == 4 * 400)
        #expect(trackers.value.allSatisfy { $0.object == nil })
        #expect(source.downstreamTransforms.count == 1)
        #expect(middle.downstreamTransforms.isEmpty)
        #expect(delivered.value == 4 * 400 + 1)
        keepAlive.cancel()
    }
}
