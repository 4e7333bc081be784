import RipplePipes
import RippleTesting
import Testing

/// Builds a pipe whose `tick` action logs `name` and returns `value`.
func ticking(_ name: String, _ log: Recorder<String>, returns value: Int = 0) -> ActionPipe<CounterActions> {
    let pipe = ActionPipe(CounterActions())
    pipe.registerAction(\.tick).action { _, _ in
        log(name)
        return value
    }
    return pipe
}

@Suite struct ChainTests {
    @Test func resultIsTheLastActionThatRan() {
        let log = Recorder<String>()
        let pipe1 = ticking("1", log, returns: 1)
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.tick).state(2).action { _, _ in 2 }
        let pipe3 = ActionPipe(CounterActions())          // registers nothing for tick
        pipe1.addPipe(pipe2).addPipe(pipe3)
        #expect(pipe3.doWithState(1).tick(0) == 1)        // pipe2 is filtered out: pipe1 ran last
        #expect(pipe3.doWithState(2).tick(0) == 2)
        #expect(pipe3.tick(0) == 2)                       // a call without state runs every action
    }

    @Test func nilWhenNoActionRan() {
        let pipe = ActionPipe(CounterActions())
        #expect(pipe.tick(1) == nil)                     // nothing registered
        pipe.registerAction(\.tick).state(1).action { _, number in number }
        #expect(pipe.doWithState(2).tick(1) == nil)      // registered, but filtered out
        pipe.registerAction(\.ping).returnNotNil().action { _ in }
        #expect(pipe.ping() == nil)                      // requirement not met
        let optional = ActionPipe(ObjectActions())
        optional.registerAction(\.someFunc).action { _, _, _ in nil }
        #expect(optional.someFunc(0, nil) == nil)       // an optional result comes back as one optional…
        let raw = optional.doWithTuple([]).rawCall(\.someFunc, 0, nil)
        #expect(raw != nil)                              // …the raw call tells that an action ran: .some(nil)
    }

    @Test func callingThroughAnyPipeRunsFromTheHead() {
        let log = Recorder<String>()
        let pipes = ["1", "2", "3"].map { ticking($0, log) }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        for pipe in pipes {
            log.reset()
            pipe.tick(0)
            #expect(log.values == ["1", "2", "3"])
        }
        #expect(pipes.allSatisfy { $0.chainLength == 3 })
    }

    @Test func addingToAPipeThatIsNotTheTailAppendsAtTheEnd() {
        let log = Recorder<String>()
        let pipes = ["1", "2", "3"].map { ticking($0, log) }
        pipes[0].addPipe(pipes[1])
        pipes[0].addPipe(pipes[2])
        pipes[1].tick(0)
        #expect(log.values == ["1", "2", "3"])
    }

    @Test func appendingABuiltSubChainReRootsAllOfIt() {
        let log = Recorder<String>()
        let head = ticking("a", log)
        let sub = ["b1", "b2", "b3"].map { ticking($0, log) }
        sub[0].addPipe(sub[1]).addPipe(sub[2])          // b1 → b2 → b3 built first
        head.addPipe(sub[1])                             // adding any pipe of it moves the whole chain
        for pipe in sub {
            log.reset()
            pipe.tick(0)
            #expect(log.values == ["a", "b1", "b2", "b3"])
        }
        #expect(sub[2].chainLength == 4)
    }

    @Test func removeFromChainDetachesOnePipe() {
        let log = Recorder<String>()
        let pipes = ["1", "2", "3"].map { ticking($0, log) }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
        pipes[1].removeFromChain()
        pipes[2].tick(0)
        #expect(log.values == ["1", "3"])
        log.reset()
        pipes[1].tick(0)
        #expect(log.values == ["2"])
        #expect(pipes[1].chainLength == 1 && pipes[0].chainLength == 2)
        pipes[1].removeFromChain()                       // alone already: nothing to do
        #expect(pipes[1].chainLength == 1)
        pipes[2].addPipe(pipes[1])                       // and it can join again
        log.reset()
        pipes[0].tick(0)
        #expect(log.values == ["1", "3", "2"])
    }

    @Test func reRegistrationReplacesAndUnregisterRemoves() {
        let log = Recorder<String>()
        let pipe = ticking("first", log)
        pipe.registerAction(\.tick).action { _, _ in
            log("second")
            return 2
        }
        #expect(pipe.tick(0) == 2)
        #expect(log.values == ["second"])
        #expect(pipe.hasAction(\.tick))
        pipe.unregisterAction(\.tick)
        #expect(!pipe.hasAction(\.tick))
        #expect(pipe.tick(0) == nil)
        #expect(log.values == ["second"])
    }

    @Test func changesAfterACallAreSeenByTheNextCall() {
        let log = Recorder<String>()
        let pipe1 = ticking("1", log)
        let pipe2 = ActionPipe(CounterActions())
        pipe1.addPipe(pipe2)
        pipe1.tick(0)
        pipe2.registerAction(\.tick).action { _, _ in
            log("2")
            return 0
        }
        pipe1.tick(0)
        pipe1.unregisterAction(\.tick)
        pipe1.tick(0)
        #expect(log.values == ["1", "1", "2", "2"])
    }

    @Test func actionsMayRegisterAndChainFromInsideACall() {
        let log = Recorder<String>()
        let pipe1 = ActionPipe(CounterActions())
        let pipe2 = ticking("2", log)
        pipe1.registerAction(\.tick).action { process, number in
            log("1")
            if number == 0 {
                pipe1.addPipe(pipe2)                   // seen by the next call, not by this one
                pipe1.registerAction(\.tick).action { _, _ in
                    log("1 replaced")
                    return 0
                }
            }
            return number
        }
        pipe1.tick(0)
        #expect(log.values == ["1"])
        pipe1.tick(0)
        #expect(log.values == ["1", "1 replaced", "2"])
    }

    @Test func bundleMergesWithoutTouchingItsSources() {
        let log = Recorder<String>()
        let a = ticking("a", log, returns: 1)
        let b = ticking("b", log, returns: 2)
        let c = ticking("c", log, returns: 3)
        a.addPipe(c)
        b.registerAction(\.name).action { _, text in "b:" + text }

        let bundle = ActionPipe.bundle([a, b])
        #expect(bundle.tick(0) == 2)
        #expect(log.values == ["a", "b"])
        #expect(bundle.name("x") == "b:x")
        #expect(bundle.chainLength == 1)

        log.reset()
        #expect(a.tick(0) == 3)
        #expect(b.tick(0) == 2)
        #expect(log.values == ["a", "c", "b"])
        #expect(a.chainLength == 2 && b.chainLength == 1)
        #expect(!a.hasAction(\.name))

        bundle.unregisterAction(\.tick)                   // editing the bundle leaves the sources alone
        #expect(a.hasAction(\.tick) && b.hasAction(\.tick))
    }

    @Test func keysFromDifferentValuesOfTheActionsStructAgree() {
        let first = ActionPipe(CounterActions())
        let second = ActionPipe(CounterActions())
        first.registerAction(\.tick).action { _, number in number + 1 }
        second.registerAction(\.tick).action { process, number in (process.upstreamReturn(as: Int.self) ?? 0) * 10 }
        first.addPipe(second)
        #expect(second.tick(4) == 50)
        #expect(CounterActions().tick == CounterActions().tick)
        #expect(CounterActions().tick.argumentCount == 1 && CounterActions().pair.argumentCount == 2)
    }

    @Test func addingAPipeAlreadyInTheChainIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe1 = ActionPipe(CounterActions())
            let pipe2 = ActionPipe(CounterActions())
            let pipe3 = ActionPipe(CounterActions())
            pipe1.addPipe(pipe2).addPipe(pipe3)
            pipe3.addPipe(pipe1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionPipe.addPipe(_:) would make a cycle: the pipe is already in this chain (3 pipes)"))
    }

    @Test func addingAPipeToItselfIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pipe = ActionPipe(CounterActions())
            pipe.addPipe(pipe)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(
            "ActionPipe.addPipe(_:) would make a cycle: the pipe is already in this chain (1 pipe)"))
    }

    @Test func bundleOfNothingIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ActionPipe<CounterActions>.bundle([])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ActionPipe.bundle(_:) needs at least one pipe, got 0"))
    }
}
