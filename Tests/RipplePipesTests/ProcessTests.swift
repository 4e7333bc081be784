import RippleCore
import RipplePipes
import RippleTesting
import Testing

@Suite struct ProcessTests {
    @Test func currentIsNilOutsideACallAndTheParameterInside() {
        #expect(ActionProcess.current == nil)
        let same = Recorder<Bool>()
        let pipe = ActionPipe(CounterActions())
        pipe.registerAction(\.tick).action { process, number in
            same(ActionProcess.current === process)
            return number
        }
        pipe.tick(1)
        #expect(same.values == [true])
        #expect(ActionProcess.current == nil)
    }

    /// A task started inside an async action inherits the call's task-local process, and it saw it as `current`
    /// after the call had ended, when no call was running.
    @Test func aTaskStartedInAnAsyncActionSeesNoProcessOnceTheCallEnded() async {
        let pipe = ActionPipe(CounterActions())
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let started = Locked<Task<Bool, Never>?>(nil)
        pipe.registerAction(\.tick).asyncAction { _, number in
            let task = Task {
                for await _ in gate { break }
                return ActionProcess.current == nil
            }
            started.withLock { $0 = task }
            return number
        }
        #expect(await pipe.callAsync(\.tick, 5) == 5)
        opener.yield()
        #expect(await started.value?.value == true)
    }

    @Test func aNestedCallRestoresTheOuterProcess() {
        let checks = Recorder<String>()
        let inner = ActionPipe(CounterActions())
        inner.registerAction(\.name).action { process, text in
            checks("inner sees \(process.actionName) \(ActionProcess.current === process)")
            return text + "!"
        }
        let outer = ActionPipe(CounterActions())
        outer.registerAction(\.tick).action { process, number in
            let nested = inner.name("hi")
            checks("nested returned \(nested ?? "nil")")
            checks("outer restored \(ActionProcess.current === process)")
            return number
        }
        #expect(outer.tick(3) == 3)
        #expect(checks.values == ["inner sees name true", "nested returned hi!", "outer restored true"])
        #expect(ActionProcess.current == nil)
    }

    @Test func aNestedCallOfTheSameChainFromInsideAnAction() {
        let log = Recorder<Int>()
        let pipe = ActionPipe(CounterActions())
        pipe.registerAction(\.tick).action { process, number in
            log(number)
            if number > 0 {
                _ = process.root(as: CounterActions.self)?.tick(number - 1)
            }
            return number
        }
        #expect(pipe.tick(3) == 3)
        #expect(log.values == [3, 2, 1, 0])
    }

    @Test func currentIsRestoredAfterANestedCallInsideAnActionThatAwaits() async {
        let checks = Recorder<String>()
        let inner = ActionPipe(CounterActions())
        inner.registerAction(\.name).asyncAction { process, text in
            await Task.yield()
            checks("inner after await \(ActionProcess.current === process)")
            return text
        }
        inner.registerAction(\.ping).action { process in
            checks("sync inner \(ActionProcess.current === process)")
        }
        let outer = ActionPipe(CounterActions())
        outer.registerAction(\.tick).asyncAction { process, number in
            await Task.yield()
            checks("outer after await \(ActionProcess.current === process)")
            _ = await inner.name.callAsync("x")
            checks("outer after async nested \(ActionProcess.current === process)")
            inner.ping()
            checks("outer after sync nested \(ActionProcess.current === process)")
            try? await Task.sleep(for: .zero)
            checks("outer at end \(ActionProcess.current === process)")
            return number * 2
        }
        #expect(await outer.tick.callAsync(21) == 42)
        #expect(await outer.callAsync(\.tick, 1) == 2)
        #expect(ActionProcess.current == nil)
        #expect(checks.values.count == 12)
        #expect(checks.values.allSatisfy { $0.hasSuffix("true") })
    }

    @Test func callAsyncAlsoRunsPlainActions() async {
        let log = Recorder<String>()
        let pipe1 = ticking("sync", log, returns: 1)
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.tick).asyncAction { process, _ in
            log("async")
            return (process.upstreamReturn(as: Int.self) ?? 0) + 1
        }
        pipe1.addPipe(pipe2)
        #expect(await pipe1.doWithState(1).tick.callAsync(0) == 2)
        #expect(await pipe1.doWithState(1).callAsync(\.tick, 0) == 2)
        #expect(log.values == ["sync", "async", "sync", "async"])
    }

    @Test func tupleIsKeyedAndPositional() {
        let seen = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.tick).action { process, number in
            #expect(process.tuple.isEmpty)
            process.tuple = ["first", number]
            process.updateTuple { $0["user"] = "ada" }
            return 0
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.tick).action { process, _ in
            let tuple = process.tuple
            seen("\(tuple.count) \(describe(tuple[0])) \(tuple.value(at: 1, as: Int.self) ?? -1) "
                 + "\(tuple.value(forKey: "user", as: String.self) ?? "-") \(describe(tuple["missing"]))")
            return 0
        }
        pipe1.addPipe(pipe2)
        pipe1.tick(7)
        #expect(seen.values == ["3 first 7 ada nil"])
        #expect(PipeTuple(1, "a").unpack(Int.self, String.self).map { "\($0)\($1)" } == "1a")
        #expect(PipeTuple(1, "a").unpack(String.self, String.self) == nil)
        #expect(PipeTuple(1).unpack(Int.self, Int.self) == nil)
        #expect(PipeTuple(keyed: ["k": 1]).value(forKey: "k", as: Int.self) == 1)
    }

    /// A key appended again named the first value still: an action that handed a new "user" downstream under the same
    /// key was silently ignored by every action after it.
    @Test func aKeyAppendedAgainNamesTheLatestValue() {
        let seen = Recorder<String>()
        let upstream = ActionPipe(CounterActions())
        upstream.registerAction(\.tick).action { process, number in
            process.updateTuple { $0.append("ada", key: "user") }
            return number
        }
        let middle = ActionPipe(CounterActions())
        middle.registerAction(\.tick).action { process, number in
            process.updateTuple { $0.append("grace", key: "user") }
            return number
        }
        let downstream = ActionPipe(CounterActions())
        downstream.registerAction(\.tick).action { process, number in
            let tuple = process.tuple
            seen("\(describe(tuple["user"])) \(tuple.value(forKey: "user", as: String.self) ?? "-") \(tuple.count)")
            return number
        }
        upstream.addPipe(middle).addPipe(downstream)
        upstream.tick(1)
        #expect(seen.values == ["grace grace 2"])

        var keyed = PipeTuple(keyed: ["k": 1, "k": 2])
        #expect(keyed["k"] as? Int == 2)
        keyed["k"] = 3
        #expect(keyed.value(at: 0, as: Int.self) == 1)
        #expect(keyed.value(at: 1, as: Int.self) == 3)
    }

    /// A nil member made the whole `unpack` return nil, so an action downstream lost every value of the tuple, even
    /// when it asked for that member as an optional.
    @Test func aNilMemberUnpacksAsAnOptional() {
        let unpacked = PipeTuple(1, nil, "a").unpack(Int.self, String?.self, String.self)
        #expect(unpacked.map { "\($0) \($1 ?? "nil") \($2)" } == "1 nil a")
        let nested = PipeTuple(nil).unpack(Int??.self)
        #expect(nested.map { $0 == nil } == true)
        // A nil member still does not fit a non-optional type.
        #expect(PipeTuple(1, nil).unpack(Int.self, String.self) == nil)
        // Nor does a value of the wrong type fit an optional one.
        #expect(PipeTuple(1, 2).unpack(Int.self, String?.self) == nil)
    }

    @Test func changeArgumentIsPositionalAndSeenDownstreamOnly() {
        let seen = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.pair).action { process, number, text in
            seen("1: \(number) \(text)")
            process.changeArgument(at: 1, to: number + 1)
            process.changeArgument(at: 2, to: text + "!")
            seen("1 after change: \(number) \(describe(process.argument(at: 2)))")
            return 1
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.pair).param(1, kindOf: Int.self).action { _, number, text in
            seen("2: \(number) \(text)")
            return number
        }
        pipe1.addPipe(pipe2)
        #expect(pipe1.pair(1, "a") == 2)
        #expect(seen.values == ["1: 1 a", "1 after change: 1 a!", "2: 2 a!"])
        seen.reset()
        #expect(pipe1.pair(10, "b") == 11)                  // a new call starts from its own arguments
        #expect(seen.values == ["1: 10 b", "1 after change: 10 b!", "2: 11 b!"])
    }

    @Test func paramNotNilAndRequirementsSeeChangedArguments() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { process, number, _ in
            if number > 0 { process.changeArgument(at: 2, to: "filled" as Any?) }
            return nil
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).paramNotNil(2).param(2, kindOf: String.self).action { _, _, object in
            log(describe(object))
            return object
        }
        pipe1.addPipe(pipe2)
        pipe1.someFunc(0, nil)
        #expect(log.values.isEmpty)
        pipe1.someFunc(1, nil)
        #expect(log.values == ["filled"])
    }

    @Test func upstreamReturnIsTheLastActionThatRanAndNilBeforeAny() {
        let seen = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.tick).action { process, _ in
            seen("first sees \(describe(process.upstreamReturnValue))")
            return 5
        }
        let skipped = ActionPipe(CounterActions())
        skipped.registerAction(\.tick).state(4).action { _, _ in 99 }
        let pipe3 = ActionPipe(CounterActions())
        pipe3.registerAction(\.tick).returnKind(of: Int.self).action { process, _ in
            let notAString = process.upstreamReturn(as: String.self) == nil
            seen("third sees \(describe(process.upstreamReturnValue)) \(notAString)")
            return 6
        }
        pipe1.addPipe(skipped).addPipe(pipe3)
        #expect(pipe1.doWithState(1).tick(0) == 6)
        #expect(seen.values == ["first sees nil", "third sees 5 true"])
    }

    @Test func paramIndexOutOfRangeIsRefusedAtRegistration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            _ = pipe.registerAction(\.pair).param(3, kindOf: Int.self)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionRegistration.param(_:kindOf:) for pair needs an index in 1...2, got 3"))
    }

    @Test func paramNotNilIndexZeroIsRefusedAtRegistration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            _ = pipe.registerAction(\.tick).paramNotNil(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionRegistration.paramNotNil(_:) for tick needs an index in 1...1, got 0"))
    }

    @Test func paramOnAnActionWithoutArgumentsIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            _ = pipe.registerAction(\.ping).paramNotNil(1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionRegistration.paramNotNil(_:) for ping needs no index (it takes no arguments), got 1"))
    }

    @Test func changeArgumentWithTheWrongTypeIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.pair).action { process, _, _ in
                process.changeArgument(at: 2, to: 42)
                return 0
            }
            pipe.pair(1, "a")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionProcess.changeArgument(at:to:) needs a String for argument 2 of pair, got Int"))
    }

    @Test func changeArgumentOutOfRangeIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.pair).action { process, _, _ in
                process.changeArgument(at: 3, to: 42)
                return 0
            }
            pipe.pair(1, "a")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionProcess.changeArgument(at:to:) needs an index in 1...2 for pair, got 3"))
    }

    /// The message named the range "1...0" for an action without arguments; it now says there is no index to give.
    @Test func argumentOfAnActionWithoutArgumentsIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.ping).action { process in _ = process.argument(at: 1) }
            pipe.ping()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionProcess.argument(at:) needs no index (it takes no arguments) for ping, got 1"))
    }

    @Test func tuplePositionOutOfRangeIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PipeTuple(1, 2)[2]
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("PipeTuple[_:] needs a position in 0..<2, got 2"))
    }

    @Test func aPlainCallReachingAnAsyncActionIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.ping).asyncAction { _ in }
            pipe.ping()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionPipe: ping has an async action; call it with callAsync"))
    }
}
