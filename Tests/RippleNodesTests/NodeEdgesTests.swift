import RippleCore
import RippleNodes
import Testing

/// Something a closure holds, so a test can see when the edge holding the closure is freed.
private final class Held: Sendable {}

/// A node with exactly one listener, or exactly one downstream transform, keeps that edge on its own rather than in
/// a list (see `NodeEdges`). These tests walk every change between the lone shapes and the list.
@Suite("Engine: lone edges and edge lists")
struct NodeEdgesTests {
    @Test func deliveriesFollowEveryChangeBetweenLoneEdgesAndLists() {
        let source = MutableNode(0)
        let bag = CancelBag()
        let heard = Locked<[String]>([])
        // A lone listener.
        let one = source.listened(by: bag).withBlock { value in heard.withLock { $0.append("one \(value)") } }
        source.value = 1
        // A listener and a downstream transform: a list.
        let doubled = source.map { $0 * 2 }
        doubled.listened(by: bag).withBlock { value in heard.withLock { $0.append("doubled \(value)") } }
        source.value = 2
        // Only the downstream transform left, then a listener again.
        one.cancel()
        source.value = 3
        let two = source.listened(by: bag).withBlock { value in heard.withLock { $0.append("two \(value)") } }
        source.value = 4
        two.cancel()
        source.value = 5
        #expect(heard.value == [
            "one 0", "one 1", "doubled 2", "one 2", "doubled 4", "doubled 6", "two 3", "two 4", "doubled 8",
            "doubled 10",
        ])
        #expect(!source.hasListener)
        #expect(source.downstreamTransforms.count == 1)
        bag.cancel()
    }

    @Test func aLoneEdgeJoinedByASecondKeepsListenersFirstInRegistrationOrder() {
        let heard = Locked<[String]>([])
        let bag = CancelBag()
        // A lone downstream transform, then a listener: the listener still runs first.
        let chained = MutableNode(0)
        chained.map { $0 + 1 }.listened(by: bag).withBlock { value in heard.withLock { $0.append("mapped \(value)") } }
        chained.listened(by: bag).withBlock { value in heard.withLock { $0.append("listener \(value)") } }
        // A lone listener, then a second one.
        let listened = MutableNode(0)
        listened.listened(by: bag).withBlock { value in heard.withLock { $0.append("first \(value)") } }
        listened.listened(by: bag).withBlock { value in heard.withLock { $0.append("second \(value)") } }
        heard.withLock { $0 = [] }
        chained.value = 1
        listened.value = 2
        #expect(heard.value == ["listener 1", "mapped 2", "first 2", "second 2"])
        #expect(chained.downstreamTransforms.count == 1 && chained.hasListener)
        bag.cancel()
    }

    @Test func aLoneDownstreamTransformCarriesValuesAndAnswersGraphQueries() {
        let source = MutableNode(1)
        let bag = CancelBag()
        let mapped = source.map { $0 + 1 }
        #expect(source.downstreamTransforms.map(\.name) == ["map"])
        #expect(!source.hasListener)
        let heard = Locked<[Int]>([])
        mapped.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
        source.value = 5
        #expect(heard.value == [2, 6])
        // A second downstream transform turns the lone slot into a list; both still receive.
        let other = source.map { $0 * 10 }
        source.value = 6
        #expect(heard.value == [2, 6, 7])
        #expect(other.value == 60)
        #expect(source.downstreamTransforms.count == 2)
        bag.cancel()
    }

    @Test func aLoneListenerCancellingItselfHearsOnceAndIsFreedOnceReleased() {
        let source = MutableNode<Int>()
        let bag = CancelBag()
        let token = Locked<(any CancelToken)?>(nil)
        let heard = Locked<[Int]>([])
        var held: Held? = Held()
        let weakHeld = WeakReference(held!)
        // `source` is empty, so nothing is delivered while `token` is locked here.
        token.withLock {
            $0 = source.listened(by: bag).withBlock { [held] value in
                _ = held
                heard.withLock { $0.append(value) }
                token.withLock { $0?.cancel() }
            }
        }
        held = nil
        source.value = 1
        source.value = 2
        #expect(heard.value == [1])
        #expect(!source.hasListener)
        // Once its owners let go, nothing else (such as a snapshot parked during the propagation) holds it.
        token.withLock { $0 = nil }
        bag.cancel()
        #expect(weakHeld.object == nil)
    }

    @Test func aLoneDownstreamNodeFreedDuringItsOwnPropagationUnlinksAndIsFreed() {
        let source = MutableNode(0)
        let bag = CancelBag()
        var held: Held? = Held()
        let weakHeld = WeakReference(held!)
        let token = Locked<(any CancelToken)?>(nil)
        let heard = Locked<[Int]>([])
        do {
            let mapped = source.map { [held] value in
                _ = held
                return value + 1
            }
            // The listener alone keeps `mapped` alive; it cancels itself on the first set. The initial value (1) is
            // delivered while `token` is locked, so only later values may take that lock.
            token.withLock {
                $0 = mapped.listened(by: bag).withBlock { value in
                    heard.withLock { $0.append(value) }
                    if value > 1 { token.withLock { $0?.cancel() } }
                }
            }
        }
        held = nil
        #expect(weakHeld.object != nil)
        source.value = 1
        source.value = 2
        #expect(heard.value == [1, 2])
        #expect(weakHeld.object == nil)
        #expect(source.downstreamTransforms.isEmpty)
        token.withLock { $0 = nil }
    }
}
