import Dispatch
import RippleCore
import RipplePipes
import RippleTesting
import Testing

/// Synchronous calls reuse their process (issue 9): what a caller can still rely on.
@Suite struct ProcessReuseTests {
    // The pool is per thread and Swift Testing runs other tests on the same threads, so the next two tests make
    // their calls on a new thread: on a shared one, a strong reference another test still holds to that thread's
    // pooled process (taken through a weak or unowned one, which the contract allows) makes these calls' process a
    // kept one, as it should, and they would fail for a reason that is not theirs.

    @Test func aProcessNobodyKeepsIsReusedByTheNextCall() {
        let seen = Recorder<ObjectIdentifier>()
        onAnotherThread {
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.tick).action { process, number in
                seen(ObjectIdentifier(process))
                return number
            }
            pipe.tick(1)
            pipe.tick(2)
        }
        #expect(seen.values.count == 2)
        #expect(seen.values.first == seen.values.last)
    }

    @Test func aReusedProcessStartsWithAnEmptyTupleAndLetsTheOldValuesGo() {
        final class Token: Sendable {}
        let tracker = LeakTracker()
        let tupleCounts = Recorder<Int>()
        let aliveAfterEachCall = onAnotherThread { () -> [[String]] in
            let pipe = ActionPipe(CounterActions())
            pipe.registerAction(\.tick).action { process, number in
                tupleCounts(process.tuple.count)
                if number == 1 {
                    process.tuple = [tracker.track(Token(), "tuple value")]
                } else if number == 2 {
                    process.updateTuple { $0.append(tracker.track(Token(), "updated tuple value")) }
                }
                return number
            }
            var alive: [[String]] = []
            pipe.tick(1)
            alive.append(tracker.alive)
            pipe.tick(2)
            alive.append(tracker.alive)
            pipe.tick(3)
            return alive
        }
        #expect(tracker.trackedCount == 2)
        #expect(aliveAfterEachCall == [[], []])          // released when each call ended, not on the next call
        #expect(tupleCounts.values == [0, 0, 0])
    }

    @Test func aKeptProcessKeepsItsCallsFinalStateAndIsNotReused() throws {
        let kept = Locked<ActionProcess?>(nil)
        let pipe1 = ActionPipe(CounterActions())
        pipe1.registerAction(\.pair).action { process, number, _ in
            if kept.value == nil { kept.withLock { $0 = process } }
            process.tuple = ["from pipe1", number]
            process.changeArgument(at: 2, to: "changed")
            return number * 10
        }
        let pipe2 = ActionPipe(CounterActions())
        pipe2.registerAction(\.pair).action { process, number, text in
            #expect(text == "changed")
            return (process.upstreamReturn(as: Int.self) ?? 0) + number
        }
        pipe1.addPipe(pipe2)
        #expect(pipe1.pair(4, "a") == 44)
        #expect(pipe1.pair(5, "b") == 55)                 // a second call must not disturb the kept process

        let process = try #require(kept.value)
        #expect(process.actionName == "pair")
        #expect(describe(process.upstreamReturnValue) == "44")
        #expect(describe(process.argument(at: 1)) == "4")
        #expect(describe(process.argument(at: 2)) == "changed")
        #expect(process.tuple.value(at: 0, as: String.self) == "from pipe1")
        #expect(process.root(as: CounterActions.self) === pipe1)   // the pipe the call went through
        #expect(ActionProcess.current == nil)
    }

    @Test func aProcessHandedToATaskStaysValidButIsNotCurrentThere() async {
        let pipe = ActionPipe(CounterActions())
        let task = Locked<Task<String, Never>?>(nil)
        pipe.registerAction(\.tick).action { process, number in
            let started = Task {
                "\(ActionProcess.current == nil) \(process.actionName) \(describe(process.argument(at: 1)))"
            }
            task.withLock { $0 = started }
            return number
        }
        pipe.tick(7)
        let text = await task.value?.value
        #expect(text == "true tick 7")
    }

    @Test(.tags(.stress)) func otherThreadsUseAProcessWhileItsCallRuns() {
        let calls = 200
        let readers = 4
        let reads = Locked(0)
        let appended = Locked(0)
        let pipes = (0..<4).map { _ in ActionPipe(CounterActions()) }
        let group = DispatchGroup()
        pipes[0].registerAction(\.tick).action { process, number in
            // hand the process to other threads that keep using it while the rest of the chain runs
            for _ in 0..<readers {
                DispatchQueue.global().async(group: group) {
                    for _ in 0..<20 {
                        if process.argument(at: 1) != nil { reads.withLock { $0 += 1 } }
                        _ = process.upstreamReturnValue
                        process.updateTuple { $0.append(number) }
                        appended.withLock { $0 += 1 }
                    }
                }
            }
            return 1
        }
        for pipe in pipes.dropFirst() {
            pipe.registerAction(\.tick).action { process, number in
                process.changeArgument(at: 1, to: number + 1)
                return (process.upstreamReturn(as: Int.self) ?? 0) + 1
            }
        }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2]).addPipe(pipes[3])
        let results = Locked<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<(calls / 8) {
                let result = pipes[(thread + call) % 4].tick(call) ?? -1
                results.withLock { $0[result, default: 0] += 1 }
            }
        }
        group.wait()
        #expect(results.value == [4: calls])
        #expect(reads.value == calls * readers * 20)
        #expect(appended.value == calls * readers * 20)
        #expect(ActionProcess.current == nil)
    }

    @Test func processesAreReleasedWithTheirPipes() {
        expectReleased { tracker in
            let pipe = tracker.track(ActionPipe(CounterActions()), "pipe")
            let kept = Locked<ActionProcess?>(nil)
            pipe.registerAction(\.tick).action { process, number in
                kept.withLock { $0 = process }
                return number
            }
            pipe.tick(1)
            tracker.track(kept.value!, "kept process")
            kept.withLock { $0 = nil }
        }
    }
}

@Suite struct DeepNestingTests {
    /// Deeper than the per-thread pool's first allocation, so the pool grows while outer calls are running.
    @Test func deeplyNestedCallsEachSeeTheirOwnProcess() {
        let log = Recorder<String>()
        let kept = Locked<[ActionProcess]>([])
        let pipe = ActionPipe(CounterActions())
        pipe.registerAction(\.tick).action { process, number in
            if number % 3 == 0 { kept.withLock { $0.append(process) } }
            if number > 0 {
                let inner = process.root(as: CounterActions.self)?.tick(number - 1)
                log("\(number) got \(inner ?? -1) current \(ActionProcess.current === process)")
            }
            process.tuple = [number]
            return number * 10
        }
        #expect(pipe.tick(11) == 110)
        #expect(log.values.count == 11)
        #expect(log.values.first == "1 got 0 current true")
        #expect(log.values.last == "11 got 100 current true")
        #expect(log.values.allSatisfy { $0.hasSuffix("current true") })
        #expect(kept.value.map { $0.tuple.value(at: 0, as: Int.self) ?? -1 } == [9, 6, 3, 0])
        #expect(kept.value.map { describe($0.upstreamReturnValue) } == ["90", "60", "30", "0"])
        #expect(ActionProcess.current == nil)
        #expect(pipe.tick(11) == 110)                     // and again, reusing the grown pool
    }
}
