import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Testing

/// `combine` keeps each input's latest value in place in the output tuple, written by that input; two to five inputs
/// take specialised overloads, other counts the pack-generic path. Both must behave alike, place every element at
/// its offset, and destroy the values they hold exactly once.
@Suite("combine: specialised arities and in-place tuple state")
struct CombineSpecialisationTests {
    private final class Token: Sendable {
        let id: Int

        init(_ id: Int) {
            self.id = id
        }
    }

    @Test func everySpecialisedArityWaitsForAllInputsThenFollowsEach() {
        let a = MutableNode<Int>()
        let b = MutableNode<String>()
        let c = MutableNode<Int8>()
        let d = MutableNode<Double>()
        let e = MutableNode<Bool>()
        let two = Node.combine(a, b).mapEach { "\($0)\($1)" }
        let three = Node.combine(a, b, c).mapEach { "\($0)\($1)\($2)" }
        let four = Node.combine(a, b, c, d).mapEach { "\($0)\($1)\($2)\($3)" }
        let five = Node.combine(a, b, c, d, e).mapEach { "\($0)\($1)\($2)\($3)\($4)" }
        a.value = 1
        b.value = "x"
        #expect(two.value == "1x" && three.isEmpty && four.isEmpty && five.isEmpty)
        c.value = 3
        d.value = 0.5
        #expect(three.value == "1x3" && four.value == "1x30.5" && five.isEmpty)
        e.value = true
        #expect(five.value == "1x30.5true")
        b.value = "y"
        #expect(two.value == "1y" && three.value == "1y3" && four.value == "1y30.5" && five.value == "1y30.5true")
    }

    /// One input and eleven inputs run the pack-generic path, six and ten the widest overloads: the same results,
    /// elements of mixed alignment in place.
    @Test func packGenericAndWideArities() {
        let one = MutableNode(7)
        let single = Node.combine(one)
        #expect(single.value == 7)
        one.value = 8
        #expect(single.value == 8)

        let small = MutableNode<Int8>(-3)
        let wide = MutableNode<Int64>(1 << 40)
        let flag = MutableNode(true)
        let half = MutableNode<Int16>(-300)
        let text = MutableNode("héllo")
        let token = MutableNode(Token(1))
        let byte = MutableNode<UInt8>(200)
        let real = MutableNode(2.5)
        let letter = MutableNode<Character>("x")
        let word = MutableNode<Int32>(-7)
        let maybe = MutableNode<Int?>(nil)
        let eleven = Node.combine(small, wide, flag, half, text, token, byte, real, letter, word, maybe)
        let six = Node.combine(small, wide, flag, half, text, token)
        let ten = Node.combine(small, wide, flag, half, text, token, byte, real, letter, word)
        var value = eleven.value
        #expect(value?.0 == -3 && value?.1 == 1 << 40 && value?.2 == true && value?.3 == -300)
        #expect(value?.4 == "héllo" && value?.5.id == 1)
        #expect(value?.6 == 200 && value?.7 == 2.5 && value?.8 == "x" && value?.9 == -7 && value?.10 == .some(nil))
        half.value = .min
        token.value = Token(2)
        maybe.value = 4
        value = eleven.value
        #expect(value?.0 == -3 && value?.3 == .min && value?.4 == "héllo" && value?.5.id == 2)
        #expect(value?.9 == -7 && value?.10 == 4)
        #expect(six.value.map { "\($0.0) \($0.1) \($0.2) \($0.3) \($0.4) \($0.5.id)" }
                == "-3 1099511627776 true -32768 héllo 2")
        #expect(ten.value.map { "\($0.3) \($0.5.id) \($0.6) \($0.7) \($0.8) \($0.9)" } == "-32768 2 200 2.5 x -7")
    }

    /// Every value is emitted in order, one emission per update once all inputs are set.
    @Test func emitsOncePerUpdateInOrder() {
        let bag = CancelBag()
        let a = MutableNode<Int>()
        let b = MutableNode<Int>()
        let received = Recorder<String>()
        Node.combine(a, b).listened(by: bag).withBlock { received.record("\($0.0),\($0.1)") }
        a.value = 1
        a.value = 2
        b.value = 10
        a.value = 3
        b.value = 20
        #expect(received.values == ["2,10", "3,10", "3,20"])
    }

    /// The values an input held — replaced ones at once, the last ones with the combine — are freed, whether or not
    /// every input ever had a value.
    @Test(arguments: [false, true])
    func heldValuesAreFreed(everyInputFilled: Bool) {
        expectReleased { tracker in
            let first = MutableNode(tracker.track(Token(1), "first token"))
            let second = MutableNode<Token>()
            let six = MutableNode(tracker.track(Token(6), "pack token"))
            do {
                let combined = tracker.track(Node.combine(first, second), "combined")
                let packed = tracker.track(Node.combine(first, MutableNode(1), MutableNode(2), MutableNode(3),
                                                        MutableNode(4), six), "packed")
                first.value = tracker.track(Token(2), "replaced token")
                first.value = tracker.track(Token(3), "last token")
                if everyInputFilled {
                    second.value = tracker.track(Token(4), "second token")
                    #expect(combined.value?.0.id == 3 && combined.value?.1.id == 4)
                }
                #expect(packed.value?.0.id == 3 && packed.value?.5.id == 6)
            }
            first.clean()
            second.clean()
            six.clean()
        }
    }

    /// Removing one input stops the combined node for good.
    @Test func removingAnInputStopsIt() {
        let a = MutableNode(1)
        let b = MutableNode(2)
        let combined = Node.combine(a, b).mapEach { $0 + $1 }
        #expect(combined.value == 3)
        combined.upstreamTransforms.first?.detach()
        b.value = 5
        #expect(combined.value == 3)
    }

    /// Concurrent sets of different inputs go through the shared state under its lock; once they are done, one more
    /// set shows both inputs' last values.
    @Test func concurrentSetsOfDifferentInputs() {
        let a = MutableNode(0)
        let b = MutableNode(0)
        let combined = Node.combine(a, b)
        let bag = CancelBag()
        let count = Locked(0)
        combined.listened(by: bag).withBlock { _ in count.withLock { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 1...2_000 {
                if thread == 0 { a.value = index } else { b.value = -index }
            }
        }
        a.value = 2_001
        #expect(combined.value?.0 == 2_001 && combined.value?.1 == -2_000)
        #expect(count.withLock { $0 } == 1 + 4_000 + 1)
    }
}
