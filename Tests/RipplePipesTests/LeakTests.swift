@testable import RipplePipes
import RippleTesting
import Testing

@Suite struct LeakTests {
    @Test func aPipeIsReleased() {
        expectReleased { tracker in
            let pipe = tracker.track(ActionPipe(CounterActions()), "pipe")
            tracker.track(chainOf(pipe), "chain")
            tracker.track(pipe.core, "core")
            pipe.registerAction(\.tick).action { _, number in number }
            #expect(pipe.tick(1) == 1)
        }
    }

    @Test func aChainIsReleased() {
        expectReleased { tracker in
            let pipes = (1...3).map { tracker.track(ActionPipe(CounterActions()), "pipe \($0)") }
            for pipe in pipes {
                tracker.track(pipe.core, "core")
                pipe.registerAction(\.tick).action { process, number in
                    // the process holds the pipe called through; it must not outlive the call
                    _ = process.root(as: CounterActions.self)
                    return number
                }
            }
            pipes[0].addPipe(pipes[1]).addPipe(pipes[2])
            tracker.track(chainOf(pipes[0]), "merged chain")
            pipes[1].tick(1)
            let sub = (1...2).map { _ in ActionPipe(CounterActions()) }
            sub[0].addPipe(sub[1])
            tracker.track(chainOf(sub[0]), "appended chain")
            pipes[2].addPipe(sub[0])
            pipes[1].removeFromChain()
            tracker.track(chainOf(pipes[1]), "chain after removal")
            let bundle = tracker.track(ActionPipe.bundle(pipes), "bundle")
            bundle.tick(2)
        }
    }

    @Test func theChainLivesWhileAnyOfItsPipesDoes() {
        let log = Recorder<String>()
        weak var head: ActionPipe<CounterActions>?
        let tail: ActionPipe<CounterActions>
        do {
            let first = ticking("head", log)
            head = first
            tail = ticking("tail", log)
            first.addPipe(tail)
        }
        #expect(head == nil)                              // the handle is gone…
        tail.tick(0)
        #expect(log.values == ["head", "tail"])          // …but its actions still run in the chain
    }

    @Test func delegatesAreReleased() {
        expectReleased { tracker in
            let log = Recorder<String>()
            let pipe = tracker.track(ActionPipe(CounterActions()), "pipe")
            let weakOne = tracker.track(Counter("weak", log: log), "weak delegate")
            let strongOne = tracker.track(Counter("strong", log: log), "strong delegate")
            pipe.registerAction(\.tick).delegate(weakOne) { object, number in object.tick(number) }
            pipe.registerAction(\.pair).strongDelegate(strongOne) { object, number, _ in object.tick(number) }
            pipe.tick(1)
            pipe.pair(2, "x")
        }
    }

    @Test func liveObjectCountersTrackPipes() {
        let names = RippleDiagnosticsNames.all
        #expect(names.contains("ActionPipe") && names.contains("ActionPipeChain"))
    }
}

import RippleCore

enum RippleDiagnosticsNames {
    static var all: Set<String> {
        _ = ActionPipe(CounterActions())
        return Set(RippleDiagnostics.liveObjects.keys)
    }
}

func chainOf(_ pipe: ActionPipe<CounterActions>) -> PipeChain {
    pipeGraphLock.withLock { pipe.currentChain }
}
