import RipplePipes
import RippleTesting
import Testing

final class Counter: Sendable {
    let name: String
    let log: Recorder<String>

    init(_ name: String, log: Recorder<String>) {
        self.name = name
        self.log = log
    }

    func tick(_ number: Int) -> Int {
        log("\(name) \(number)")
        return number * 10
    }
}

@Suite struct DelegateTests {
    @Test func aFreedWeakDelegateIsSkipped() {
        let log = Recorder<String>()
        let pipe1 = ticking("before", log, returns: 1)
        let pipe2 = ActionPipe(CounterActions())
        var delegate: Counter? = Counter("delegate", log: log)
        pipe2.registerAction(\.tick).delegate(delegate!) { object, number in object.tick(number) }
        let pipe3 = ActionPipe(CounterActions())
        pipe3.registerAction(\.tick).action { process, _ in process.upstreamReturn(as: Int.self) ?? -1 }
        pipe1.addPipe(pipe2).addPipe(pipe3)

        #expect(pipe1.tick(2) == 20)
        #expect(log.values == ["before", "delegate 2"])

        delegate = nil                                    // the pipe does not keep it alive
        log.reset()
        #expect(pipe1.tick(2) == 1)                       // skipped: the upstream return stays pipe1's
        #expect(log.values == ["before"])
        #expect(pipe2.hasAction(\.tick))
    }

    @Test func aStrongDelegateIsKeptAlive() {
        let log = Recorder<String>()
        let pipe = ActionPipe(CounterActions())
        weak var watched: Counter?
        do {
            let delegate = Counter("strong", log: log)
            watched = delegate
            pipe.registerAction(\.tick).strongDelegate(delegate) { object, number in object.tick(number) }
        }
        #expect(watched != nil)
        #expect(pipe.tick(3) == 30)
        #expect(log.values == ["strong 3"])
        pipe.unregisterAction(\.tick)                     // replacing or removing the action lets it go
        #expect(watched == nil)
    }

    @Test func upstreamReturnAsTarget() {
        let log = Recorder<String>()
        let factory = ActionPipe(CounterActions())
        let made = Recorder<Counter>()
        let pipe1 = ActionPipe(ObjectActions())
        pipe1.registerAction(\.someFunc).action { _, number, _ in
            if number < 0 { return "not a counter" }
            let counter = Counter("returned", log: log)
            made(counter)
            return counter
        }
        let pipe2 = ActionPipe(ObjectActions())
        pipe2.registerAction(\.someFunc).upstreamReturnAsTarget(Counter.self) { counter, number, _ in
            counter.tick(number)
        }
        pipe1.addPipe(pipe2)
        let result = pipe1.someFunc(4, nil)
        #expect((result ?? nil) as? Int == 40)
        #expect(log.values == ["returned 4"])
        let skipped = pipe1.someFunc(-1, nil)            // upstream returned a String: pipe2 is skipped
        #expect((skipped ?? nil) as? String == "not a counter")
        #expect(log.values == ["returned 4"])
        _ = factory
        _ = made
    }

    /// The documentation said a strong delegate is held until its pipe is freed; the chain keeps its pipes' actions,
    /// so it is held, and answers, until the chain is freed.
    @Test func aStrongDelegateLivesAsLongAsThePipesChain() {
        final class Responder: Sendable {
            func answer(_ number: Int) -> Int { number * 2 }
        }
        var head: ActionPipe<CounterActions>? = ActionPipe(CounterActions())
        weak var responder: Responder?
        do {
            let second = ActionPipe(CounterActions())
            head?.addPipe(second)
            let strong = Responder()
            responder = strong
            second.registerAction(\.tick).strongDelegate(strong) { responder, number in responder.answer(number) }
        }
        // Its pipe is gone; the chain still holds its action, and through it the responder.
        #expect(head?.tick(3) == 6)
        #expect(responder != nil)
        head = nil
        #expect(responder == nil)
    }
}
