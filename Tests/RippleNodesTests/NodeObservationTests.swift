import Dispatch
import Observation
import RippleCore
import RippleNodes
import Testing

/// Tracks `read` with `withObservationTracking` and tracks it again from each `onChange`, as SwiftUI re-renders: so
/// `changes` counts every notification, not only the first.
private func trackContinuously(_ changes: Locked<Int>, _ read: @escaping @Sendable () -> Void) {
    withObservationTracking(read) {
        changes.withLock { $0 += 1 }
        trackContinuously(changes, read)
    }
}

/// A view-model-like `@MainActor` class reading nodes inside tracking, as a SwiftUI `body` does. That it compiles in
/// the Swift 6 language mode (strict concurrency) is the compile test; `mainActorViewModel` runs it.
@MainActor
final class CounterScreen {
    let count = MutableNode(0)
    let doubled: Node<Int>
    /// How many times the shown text went stale (what makes SwiftUI schedule a new `body`).
    let invalidations = Locked(0)
    private(set) var text = ""

    init() {
        doubled = count.map { $0 * 2 }
    }

    func render() {
        text = withObservationTracking {
            "\(count.value ?? 0) × 2 = \(doubled.value ?? 0)"
        } onChange: { [invalidations] in
            invalidations.withLock { $0 += 1 }
        }
    }
}

@Suite("Node and Swift Observation", .timeLimit(.minutes(1)))
struct NodeObservationTests {
    @Test func aSetOnAMutableNodeFiresOnChangeOncePerTracking() {
        let node = MutableNode(1)
        let fired = Locked(0)
        let seen = Locked<Int?>(nil)
        let read = withObservationTracking { node.value } onChange: {
            fired.withLock { $0 += 1 }
            // Ripple notifies after storing: onChange already reads the new value.
            seen.withLock { $0 = node.value }
        }
        #expect(read == 1)
        #expect(fired.withLock { $0 } == 0)
        node.value = 2
        #expect(fired.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == 2)
        node.value = 3
        #expect(fired.withLock { $0 } == 1)
    }

    /// A node notifies only when read since its last notification (the read flag): settles with no read in between
    /// skip Observation, and a tracking registered after them is still reached by the next set.
    @Test func trackingAfterUntrackedReadsAndSilentSetsStillFires() {
        let node = MutableNode(1)
        _ = node.value                      // an untracked read: the registrar exists, the flag is raised
        node.value = 2                      // notifies nobody and clears the flag
        node.value = 3                      // no read since: skips Observation
        let fired = Locked(0)
        let read = withObservationTracking { node.value } onChange: { fired.withLock { $0 += 1 } }
        #expect(read == 3)
        node.value = 4
        #expect(fired.withLock { $0 } == 1)
        // value(or:) and withValue raise the flag too.
        let again = Locked(0)
        withObservationTracking { _ = node.value(or: 0) } onChange: { again.withLock { $0 += 1 } }
        node.value = 5
        node.value = 6
        #expect(again.withLock { $0 } == 1)
    }

    @Test func aDerivedNodeFiresOnChangeWhenItSettles() {
        let source = MutableNode(1)
        let doubled = source.map { $0 * 2 }
        let fired = Locked(0)
        let seen = Locked<Int?>(nil)
        withObservationTracking { _ = doubled.value } onChange: {
            fired.withLock { $0 += 1 }
            seen.withLock { $0 = doubled.value }
        }
        source.value = 5
        #expect(fired.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == 10)
    }

    @Test func readingTwoNodesRegistersBoth() {
        let a = MutableNode(1)
        let b = MutableNode("b")
        for setB in [false, true] {
            let fired = Locked(0)
            withObservationTracking { _ = (a.value, b.value) } onChange: { fired.withLock { $0 += 1 } }
            if setB { b.value = "c" } else { a.value = 2 }
            #expect(fired.withLock { $0 } == 1, "set \(setB ? "b" : "a")")
        }
    }

    @Test func aSetOnAnotherNodeDoesNotFire() {
        let a = MutableNode(1)
        let b = MutableNode(1)
        let bDerived = b.map { $0 + 1 }
        _ = bDerived.value  // b's derived node is observable too, but nobody tracks it here
        let fired = Locked(0)
        withObservationTracking { _ = a.value } onChange: { fired.withLock { $0 += 1 } }
        b.value = 2
        #expect(bDerived.value == 3)
        #expect(fired.withLock { $0 } == 0)
        a.value = 2
        #expect(fired.withLock { $0 } == 1)
    }

    @Test func otherReadsRegisterToo() {
        let node = MutableNode<Int>()
        let reads: [@Sendable () -> Void] = [
            { _ = node.value(or: 0) }, { node.withValue { _ in } },
        ]
        for (index, read) in reads.enumerated() {
            let fired = Locked(0)
            withObservationTracking(read) { fired.withLock { $0 += 1 } }
            node.value = index
            #expect(fired.withLock { $0 } == 1, "read \(index)")
        }
    }

    @Test func anEmptyNodeFiresWhenSetAndWhenEmptied() {
        let node = MutableNode<Int>()
        let changes = Locked(0)
        trackContinuously(changes) { _ = node.value }
        node.value = 1
        #expect(changes.withLock { $0 } == 1)
        // Listeners never hear an empty value; Observation does, since `value` changed.
        node.clean()
        #expect(node.value == nil)
        #expect(changes.withLock { $0 } == 2)
        // Emptying an empty node changes nothing.
        node.clean()
        #expect(changes.withLock { $0 } == 2)
    }

    /// `onChange` is user code, run while the node settles and before it pushes: a transform it unlinks is not
    /// pushed along, as one a listener unlinks is not.
    @Test func aTransformUnlinkedFromOnChangeIsNotPushedAlong() {
        let source = MutableNode(0)
        let target = MutableNode(-1)
        let link = target.link(to: source)
        withObservationTracking { _ = source.value } onChange: { link.cancel() }
        source.value = 1
        #expect(target.value == 0)
        #expect(source.downstreamTransforms.isEmpty)
    }

    @Test func aBatchNotifiesOncePerNode() {
        let a = MutableNode(0)
        let b = MutableNode(0)
        let sum = Node.combine(a, b).mapEach { $0 + $1 }
        let aChanges = Locked(0)
        let sumChanges = Locked(0)
        trackContinuously(aChanges) { _ = a.value }
        trackContinuously(sumChanges) { _ = sum.value }
        Node.batch {
            a.value = 1
            a.value = 2
            b.value = 10
        }
        #expect(sum.value == 12)
        #expect(aChanges.withLock { $0 } == 1)
        #expect(sumChanges.withLock { $0 } == 1)
        // Outside a batch each set is a transaction of its own.
        a.value = 3
        b.value = 20
        #expect(aChanges.withLock { $0 } == 2)
        #expect(sumChanges.withLock { $0 } == 3)
    }

    @MainActor @Test func mainActorViewModel() {
        let screen = CounterScreen()
        screen.render()
        #expect(screen.text == "0 × 2 = 0")
        screen.count.value = 4
        #expect(screen.invalidations.withLock { $0 } == 1)
        screen.render()
        #expect(screen.text == "4 × 2 = 8")
    }

    /// Each thread tracks the node, then sets it: its own set must have fired its onChange by the time it returns,
    /// while the other threads read and set the same node.
    @Test func tracksAndSetsFromSeveralThreads() {
        let node = MutableNode(0)
        let missed = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<2_000 {
                let fired = Locked(false)
                withObservationTracking { _ = node.value } onChange: { fired.withLock { $0 = true } }
                node.value = thread * 10_000 + round
                if !fired.withLock({ $0 }) { missed.withLock { $0 += 1 } }
            }
        }
        #expect(missed.withLock { $0 } == 0)
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func observationsSeesEachValueSetAfterTheLastOneArrived() async {
        let node = MutableNode(0)
        var seen: [Int?] = []
        for await value in Observations({ node.value }) {
            seen.append(value)
            guard let value, value < 3 else { break }
            node.value = value + 1
        }
        #expect(seen == [0, 1, 2, 3])
    }

    /// Observations coalesces: sets made before the sequence asks again arrive as the latest value only.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func observationsCoalescesABurstIntoItsLastValue() async {
        let source = MutableNode(0)
        let derived = source.map { $0 * 10 }
        var seen: [Int?] = []
        for await value in Observations({ derived.value }) {
            seen.append(value)
            if value == 0 {
                for next in 1...5 { source.value = next }
            } else if value == 50 {
                break
            }
        }
        #expect(seen.first == 0)
        #expect(seen.last == 50)
        #expect(seen.count <= 6)
    }
}
