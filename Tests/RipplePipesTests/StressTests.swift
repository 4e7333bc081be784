import Dispatch
import RippleCore
import RipplePipes
import Testing

@Suite struct StressTests {
    @Test(.tags(.stress)) func eightThreadsCallOneChain() {
        let callsPerThread = 2_000
        let pipes = (0..<5).map { _ in ActionPipe(CounterActions()) }
        let runs = pipes.map { _ in Locked(0) }
        let mismatches = Locked(0)
        for (index, pipe) in pipes.enumerated() where index != 2 {   // pipe 2 registers nothing
            pipe.registerAction(\.tick).action { process, number in
                runs[index].withLock { $0 += 1 }
                if ActionProcess.current !== process { mismatches.withLock { $0 += 1 } }
                _ = number
                return (process.upstreamReturn(as: Int.self) ?? 0) + 1
            }
        }
        pipes[0].addPipe(pipes[1]).addPipe(pipes[2]).addPipe(pipes[3]).addPipe(pipes[4])
        let results = Locked<[Int: Int]>([:])

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<callsPerThread {
                let result = pipes[(thread + call) % 5].tick(call) ?? -1
                results.withLock { $0[result, default: 0] += 1 }
            }
        }

        let total = 8 * callsPerThread
        #expect(results.value == [4: total])             // four actions ran in every call, in order
        #expect(runs.map(\.value) == [total, total, 0, total, total])
        #expect(mismatches.value == 0)
        #expect(ActionProcess.current == nil)
    }

    @Test(.tags(.stress)) func callsWhileActionsAreReplaced() {
        let calls = 2_000
        let pipe = ActionPipe(CounterActions())
        let other = ActionPipe(CounterActions())
        pipe.addPipe(other)
        pipe.registerAction(\.tick).action { _, number in number }
        let answered = Locked(0)

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<calls {
                if thread == 0 {
                    // one thread keeps replacing the other pipe's action, with one that returns the same value
                    other.registerAction(\.tick).action { process, number in
                        process.upstreamReturn(as: Int.self) ?? number
                    }
                    if call % 2 == 0 { other.unregisterAction(\.tick) }
                } else if pipe.tick(call) == call {
                    answered.withLock { $0 += 1 }
                }
            }
        }
        #expect(answered.value == 7 * calls)
    }

    @Test(.tags(.stress)) func callsWhileThePipeGraphChanges() {
        let calls = 2_000
        let head = ActionPipe(CounterActions())
        let tail = ActionPipe(CounterActions())
        let moving = ActionPipe(CounterActions())
        let headRuns = Locked(0)
        head.registerAction(\.tick).action { _, _ in
            headRuns.withLock { $0 += 1 }
            return 1
        }
        moving.registerAction(\.tick).action { process, _ in (process.upstreamReturn(as: Int.self) ?? 0) + 10 }
        tail.registerAction(\.tick).action { process, _ in (process.upstreamReturn(as: Int.self) ?? 0) + 100 }
        head.addPipe(tail)
        let outcomes = Locked<[Int: Int]>([:])

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<calls {
                if thread == 0 {
                    // one thread keeps moving a pipe in and out of the chain
                    if call % 2 == 0 { tail.addPipe(moving) } else { moving.removeFromChain() }
                } else {
                    let result = tail.tick(call) ?? -1
                    outcomes.withLock { $0[result, default: 0] += 1 }
                }
            }
        }
        let seen = outcomes.value
        #expect(Set(seen.keys).isSubset(of: [101, 111]))  // with or without the moving pipe, never a torn chain
        #expect(seen.values.reduce(0, +) == 7 * calls)
        #expect(headRuns.value == 7 * calls)
        #expect(head.chainLength == 2)
    }
}
