import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// `zip` keeps a typed FIFO per input and moves the first value of each straight into the output tuple; two to five
/// inputs take specialised overloads, other counts the pack-generic path. Both must pair alike and let go of every
/// queued value.
@Suite("zip: specialised arities and typed queues")
struct ZipSpecialisationTests {
    private final class Token: Sendable {
        let id: Int

        init(_ id: Int) {
            self.id = id
        }
    }

    @Test func everySpecialisedArityPairsInOrder() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<String>()
        let c = MutableNode<Int8>()
        let d = MutableNode<Double>()
        let e = MutableNode<Bool>()
        let received = Recorder<String>()
        Node.zip(a, b).listened(by: bag).withBlock { received.record("2:\($0)\($1)") }
        Node.zip(a, b, c).listened(by: bag).withBlock { received.record("3:\($0)\($1)\($2)") }
        Node.zip(a, b, c, d).listened(by: bag).withBlock { received.record("4:\($0)\($1)\($2)\($3)") }
        Node.zip(a, b, c, d, e).listened(by: bag).withBlock { received.record("5:\($0)\($1)\($2)\($3)\($4)") }
        a.value = 1
        a.value = 2
        b.value = "x"
        c.value = 3
        d.value = 0.5
        e.value = true
        b.value = "y"
        #expect(received.values == ["2:1x", "3:1x3", "4:1x30.5", "5:1x30.5true", "2:2y"])
    }

    /// One input and six inputs run the pack-generic path: the same pairing, elements of mixed alignment in place.
    @Test func packGenericArities() {
        let one = MutableNode<Int>()
        let single = Node.zip(one)
        one.value = 4
        #expect(single.value == 4)

        let small = MutableNode<Int8>()
        let wide = MutableNode<Int64>()
        let flag = MutableNode<Bool>()
        let half = MutableNode<Int16>()
        let text = MutableNode<String>()
        let token = MutableNode<Token>()
        let six = Node.zip(small, wide, flag, half, text, token)
        small.value = -3
        small.value = 5
        wide.value = 1 << 40
        flag.value = true
        half.value = -300
        text.value = "héllo"
        #expect(six.isEmpty)
        token.value = Token(1)
        let value = six.value
        #expect(value?.0 == -3 && value?.1 == 1 << 40 && value?.2 == true && value?.3 == -300)
        #expect(value?.4 == "héllo" && value?.5.id == 1)
    }

    /// Values still queued are freed when an input is removed (the zip stops) and when the zip goes away.
    @Test func queuedValuesAreFreed() {
        expectReleased { tracker in
            let a = MutableNode<Token>()
            let b = MutableNode<Int>()
            let zipped = Node.zip(a, b)
            a.value = tracker.track(Token(1), "paired")
            a.value = tracker.track(Token(2), "queued until stopped")
            b.value = 1
            #expect(zipped.value?.0.id == 1)
            zipped.upstreamTransforms.last?.detach()
            a.clean()
            let packed = Node.zip(a, b, MutableNode(1), MutableNode(2), MutableNode(3), MutableNode(4))
            a.value = tracker.track(Token(3), "queued until freed")
            a.clean()
            _ = packed
        }
    }

    /// Removing an input stops the zip and drops what is still queued at once, while the zip lives on.
    @Test func removingAnInputDropsQueuedValues() {
        let a = MutableNode<Token>()
        let b = MutableNode<Int>()
        let zipped = Node.zip(a, b)
        weak var queued: Token?
        do {
            let token = Token(2)
            queued = token
            a.value = token
        }
        a.clean()
        #expect(queued != nil)
        zipped.upstreamTransforms.last?.detach()
        #expect(queued == nil)
        withExtendedLifetime(zipped) {}
    }

    /// Two threads feed the two inputs: every pair still matches the k-th value of one with the k-th of the other.
    @Test func concurrentInputsPairInFIFOOrder() {
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        let bag = CancelBag()
        let pairs = Locked<[(Int, Int)]>([])
        Node.zip(a, b).listened(by: bag).withBlock { pair in pairs.withLock { $0.append(pair) } }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 1...2_000 {
                if thread == 0 { a.value = index } else { b.value = -index }
            }
        }
        let all = pairs.withLock { $0 }
        #expect(all.count == 2_000)
        #expect(all.allSatisfy { $0.0 == -$0.1 })
        #expect(Set(all.map(\.0)).count == 2_000)
    }
}
