import Foundation
import RippleCore
import RipplePipes
import RippleTesting
import Testing

/// The rest of ZZActionPipe's public header: `respondsToSelector:` for the chain, `doWithTuple`,
/// `doWithStateAndTuple`, `retainPipeBy:`, integer states, `changeArgumentOld:toNew:`'s answer.
@Suite struct SeedHeaderTests {
    @Test func respondsToAsksTheWholeChain() {
        let pipe1 = ActionPipe(CounterActions())
        let pipe2 = ActionPipe(CounterActions())
        let pipe3 = ActionPipe(CounterActions())
        pipe2.registerAction(\.tick).state(4).returnNotNil().action { _, number in number }
        #expect(!pipe1.responds(to: \.tick))
        pipe1.addPipe(pipe2).addPipe(pipe3)
        // Every pipe answers for the chain, whatever its own registrations; requirements are decided per call.
        #expect(pipe1.responds(to: \.tick) && pipe2.responds(to: \.tick) && pipe3.responds(to: \.tick))
        #expect(!pipe1.hasAction(\.tick) && pipe2.hasAction(\.tick))
        #expect(!pipe3.responds(to: \.name))
        pipe2.removeFromChain()
        #expect(!pipe1.responds(to: \.tick) && !pipe3.responds(to: \.tick) && pipe2.responds(to: \.tick))
        pipe2.unregisterAction(\.tick)
        #expect(!pipe2.responds(to: \.tick))
    }

    @Test func aCallStartedWithATupleHandsItToTheFirstAction() {
        let seen = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.tick).action { process, number in
            let (text, extra) = process.tuple.unpack(String.self, Int.self) ?? ("none", 0)
            seen("pipe1 \(number) \(text) \(extra)")
            process.updateTuple { $0.append("from pipe1") }
            return number + extra
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.tick).action { process, number in
            seen("pipe2 \(process.tuple.count) \(process.tuple.value(at: 2, as: String.self) ?? "-")")
            return (process.upstreamReturn(as: Int.self) ?? 0) * 10
        }
        pipe1.addPipe(pipe2)
        #expect(pipe2.doWithTuple(PipeTuple("hello", 5)).tick(1) == 60)
        #expect(pipe1.doWithTuple(["bye", 1]).call(\.tick, 2) == 30)
        // A plain call afterwards starts empty again: the tuple belonged to the calls above.
        #expect(pipe1.tick(3) == 30)
        #expect(seen.values == [
            "pipe1 1 hello 5", "pipe2 3 from pipe1",
            "pipe1 2 bye 1", "pipe2 3 from pipe1",
            "pipe1 3 none 0", "pipe2 1 -",
        ])
    }

    @Test func aCallStartedWithStateAndTupleFiltersAndHandsTheTuple() {
        let seen = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.name).state(1).action { process, text in
            seen("state 1 \(text) \(process.tuple["user"].map { "\($0)" } ?? "-") \(process.state?.rawValue ?? 0)")
            return "1"
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.name).state(10).action { process, text in
            seen("state 10 \(text) \(process.tuple["user"].map { "\($0)" } ?? "-")")
            return "10"
        }
        pipe1.addPipe(pipe2)
        #expect(pipe1.doWithStateAndTuple(1, PipeTuple(keyed: ["user": "ann"])).name("a") == "1")
        #expect(pipe2.doWithStateAndTuple(1 | 10, PipeTuple(keyed: ["user": "bob"])).name("b") == "10")
        #expect(pipe1.doWithState(10).doWithTuple(PipeTuple(keyed: ["user": "cy"])).name("c") == "10")
        #expect(seen.values == [
            "state 1 a ann 1", "state 1 b bob 11", "state 10 b bob", "state 10 c cy",
        ])
    }

    @Test func aTupleCallWorksAsyncToo() async {
        let pipe = ActionPipe(CounterActions())
        pipe.registerAction(\.name).asyncAction { process, text in
            await Task.yield()
            return text + (process.tuple.value(at: 0, as: String.self) ?? "?")
        }
        #expect(await pipe.doWithTuple(["!"]).name.callAsync("hi") == "hi!")
        #expect(await pipe.doWithStateAndTuple(2, ["?"]).callAsync(\.name, "ho") == "ho?")
    }

    @Test func anOwnerRetainedChainIsFreedWithItsOwner() {
        final class Owner: ListenerOwner {
            let cancelBag = CancelBag()
        }
        let log = Recorder<String>()
        weak var weakHead: ActionPipe<CounterActions>?
        weak var weakTail: ActionPipe<CounterActions>?
        weak var weakCaptured: Token?
        var owner: Owner? = Owner()
        do {
            let captured = Token()
            weakCaptured = captured
            let head = ActionPipe(CounterActions())
            let tail = ActionPipe(CounterActions())
            head.registerAction(\.tick).action { _, number in
                withExtendedLifetime(captured) { log("head \(number)") }
                return number
            }
            tail.registerAction(\.tick).action { _, number in
                log("tail \(number)")
                return number + 1
            }
            head.addPipe(tail)
            head.retained(by: owner!)
            weakHead = head
            weakTail = tail
        }
        // The owner keeps the head, and through it the chain's actions; the tail handle itself was not retained.
        #expect(weakHead != nil)
        #expect(weakTail == nil)
        #expect(weakHead?.tick(1) == 2)
        #expect(log.values == ["head 1", "tail 1"])
        owner = nil
        #expect(weakHead == nil)
        #expect(weakCaptured == nil, "the chain's actions, and what they captured, go with the last pipe")
    }

    @Test func statesFromPlainIntegers() {
        let seen = Recorder<Int>()
        let pipe = ActionPipe(CounterActions())
        let mask = 8
        pipe.registerAction(\.tick).state(ActionState(mask)).action { _, number in
            seen(number)
            return number
        }
        pipe.doWithState(1 | 8).tick(1)
        pipe.doWithState(1 | 2).tick(2)
        pipe.doWithState(ActionState(mask) | 1).tick(3)
        #expect(seen.values == [1, 3])
        #expect(ActionState(UInt8(3)) == [1, 2])
        #expect((1 | 10 as ActionState).rawValue == 11)
    }

    @Test func aNegativeStateMaskIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mask = -1
            _ = ActionState(mask)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionState.init(_:) needs a mask ≥ 0, got -1"))
    }

    /// A mask wider than 64 bits was refused as "needs a mask ≥ 0", which it was.
    @Test func aStateMaskWiderThan64BitsIsRefusedAsSuch() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mask = UInt128(1) << 64
            _ = ActionState(mask)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionState.init(_:) needs a mask of at most 64 bits (≤ 18446744073709551615), got 18446744073709551616"))
    }

    @Test func changeArgumentTellsWhetherItApplied() {
        let answers = Recorder<Bool>()
        let kept = Locked<ActionProcess?>(nil)
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.pair).action { process, number, _ in
            answers(process.changeArgument(at: 2, to: "changed"))
            kept.withLock { $0 = process }
            return number
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.pair).action { _, _, text in text.count }
        pipe1.addPipe(pipe2)
        #expect(pipe1.pair(1, "a") == 7)
        // After the call nothing downstream can see a change: it is refused, and says so.
        let process = kept.withLock { $0 }!
        answers(process.changeArgument(at: 2, to: "late"))
        #expect(answers.values == [true, false])
        #expect(process.argument(at: 2) as? String == "changed")
    }

    @Test func changeArgumentWithTheWrongTypeNamesTheArgument() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Labelled: Sendable {
                var move = ActionKey<Int, String, Int>("move(steps:direction:)")
            }
            let pipe = ActionPipe(Labelled())
            pipe.registerAction(\.move).action { process, steps, _ in
                process.changeArgument(at: 2, to: Date(timeIntervalSince1970: 0))
                return steps
            }
            pipe.move(1, "north")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionProcess.changeArgument(at:to:) needs a String for argument 2 (direction) of "
                                 + "move(steps:direction:), got Date"))
    }

    @Test func anOptionalResultComesBackAsOneOptional() async {
        let pipe = ActionPipe(ObjectActions())
        let nothing = pipe.someFunc(1, nil)
        #expect(nothing == nil)
        pipe.registerAction(\.someFunc).action { _, number, _ in number > 0 ? "positive" : nil }
        let value: Any? = pipe.someFunc(1, nil)              // Any?, not Any??
        #expect(value as? String == "positive")
        #expect(pipe.call(\.someFunc, 0, nil) == nil)
        #expect(pipe.doWithState(1).someFunc(1, nil) as? String == "positive")
        #expect(pipe.doWithTuple([]).someFunc(1, nil) as? String == "positive")
        #expect(await pipe.someFunc.callAsync(1, nil) as? String == "positive")
        #expect(await pipe.callAsync(\.someFunc, 1, nil) as? String == "positive")
        // The unflattened call still tells "none ran" (nil) from "returned nil" (.some(nil)).
        let raw = pipe.doWithTuple([]).rawCall(\.someFunc, 0, nil)
        #expect(raw != nil && raw! == nil)
    }

    @Test func theFirstThrowingActionEndsTheCall() throws {
        struct Failure: Error, Equatable {
            let step: Int
        }
        struct Throwing: Sendable {
            var save = ActionKey<Int, Result<Int, any Error>>("save(_:)")
        }
        let ran = Recorder<Int>()
        let pipes = (1...3).map { _ in ActionPipe(Throwing()) }
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.save).throwingAction { _, value in
                ran(index)
                if value == index { throw Failure(step: index) }
                return value + index
            }
        }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        let saved = try pipes[0].save(9)?.get()
        #expect(saved == 11)
        #expect(ran.values == [0, 1, 2])
        ran.reset()
        #expect(throws: Failure(step: 1)) { try pipes[0].save(1)?.get() }
        #expect(ran.values == [0, 1], "the actions after the one that threw are skipped")
    }
}
