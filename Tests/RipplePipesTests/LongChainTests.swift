import Foundation
import RippleCore
import RipplePipes
import Testing

/// A chain of 100,000 pipes, built, called and edited on a thread with a 512 KiB stack (an iOS secondary thread's).
@Suite(.timeLimit(.minutes(1))) struct LongChainTests {
    /// Every edit took down the published plan of every pipe of the chain, published or not, so building a chain of
    /// n pipes, or registering an action on each, cost n²: 2,000 pipes took seconds and 100,000 never finished. An
    /// edit now takes down only the plans the chain's pipes published since the last change.
    @Test func aHundredThousandPipesAreChainedRegisteredCalledAndEdited() async {
        let outcome = await onSmallStack { () -> [String] in
            var wrong: [String] = []
            let count = pipeScale(100_000)
            var pipes = (0..<count).map { _ in ActionPipe(CounterActions()) }
            for index in 1..<count {
                pipes[index - 1].addPipe(pipes[index])
            }
            for pipe in pipes {
                pipe.registerAction(\.tick).action { process, _ in (process.upstreamReturn(as: Int.self) ?? 0) + 1 }
            }
            if pipes[count - 1].chainLength != count { wrong.append("length \(pipes[count - 1].chainLength)") }
            // Calls through two pipes publish the plan on both; an edit must take down both.
            for entry in [0, count / 2] where pipes[entry].tick(0) != count {
                wrong.append("pipe \(entry) before the edit: \(pipes[entry].tick(0) ?? -1)")
            }
            pipes[7].registerAction(\.tick).action { process, _ in (process.upstreamReturn(as: Int.self) ?? 0) + 2 }
            for entry in [0, count / 2] where pipes[entry].tick(0) != count + 1 {
                wrong.append("pipe \(entry) after the edit: \(pipes[entry].tick(0) ?? -1)")
            }
            pipes[9].removeFromChain()
            for entry in [0, count / 2] where pipes[entry].tick(0) != count {
                wrong.append("pipe \(entry) after a removal: \(pipes[entry].tick(0) ?? -1)")
            }
            if pipes[9].tick(0) != 1 { wrong.append("the removed pipe: \(pipes[9].tick(0) ?? -1)") }
            weak let last = pipes[count - 1]
            pipes = []
            if last != nil { wrong.append("the chain outlived its pipes") }
            return wrong
        }
        #expect(outcome == [])
    }
}

/// Chains built from the tail, or from two long halves: each merge copied the longer chain's list into the shorter
/// one's, so joining each pipe to the chain after it cost n² (100,000 pipes never finished).
@Suite(.timeLimit(.minutes(1))) struct LongChainMergeTests {
    /// Registers on each pipe an action that checks it runs right after the pipe before it and returns its index.
    private func registerOrderCheck(on pipes: [ActionPipe<CounterActions>], misses: Locked<Int>) {
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.tick).action { process, _ in
                if (process.upstreamReturn(as: Int.self) ?? -1) != index - 1 { misses.withLock { $0 += 1 } }
                return index
            }
        }
    }

    @Test func aHundredThousandPipesChainedFromTheTail() async {
        let outcome = await onSmallStack { () -> [String] in
            var wrong: [String] = []
            let count = pipeScale(100_000)
            let pipes = (0..<count).map { _ in ActionPipe(CounterActions()) }
            for index in stride(from: count - 2, through: 0, by: -1) {
                pipes[index].addPipe(pipes[index + 1])
            }
            let misses = Locked(0)
            registerOrderCheck(on: pipes, misses: misses)
            if pipes[0].chainLength != count { wrong.append("length \(pipes[0].chainLength)") }
            for entry in [0, count / 2, count - 1] where pipes[entry].tick(0) != count - 1 {
                wrong.append("pipe \(entry): \(pipes[entry].tick(0) ?? -1)")
            }
            if misses.value != 0 { wrong.append("\(misses.value) pipes ran out of order") }
            return wrong
        }
        #expect(outcome == [])
    }

    @Test func twoChainsOfFiftyThousandJoined() async {
        let outcome = await onSmallStack { () -> [String] in
            var wrong: [String] = []
            let half = pipeScale(50_000)
            let pipes = (0..<2 * half).map { _ in ActionPipe(CounterActions()) }
            // The first half from its head, the second from its tail, then the first joined before the second
            // through pipes in their middles.
            for index in 1..<half { pipes[index - 1].addPipe(pipes[index]) }
            for index in stride(from: 2 * half - 2, through: half, by: -1) { pipes[index].addPipe(pipes[index + 1]) }
            pipes[half / 2].addPipe(pipes[half + half / 2])
            let misses = Locked(0)
            registerOrderCheck(on: pipes, misses: misses)
            for entry in [0, half - 1, half, 2 * half - 1] where pipes[entry].tick(0) != 2 * half - 1 {
                wrong.append("pipe \(entry): \(pipes[entry].tick(0) ?? -1)")
            }
            if pipes[half].chainLength != 2 * half { wrong.append("length \(pipes[half].chainLength)") }
            if misses.value != 0 { wrong.append("\(misses.value) pipes ran out of order") }
            return wrong
        }
        #expect(outcome == [])
    }
}

/// A tenth under a sanitizer, where each call costs ~10× more and the whole suite runs at once (the debug pass runs
/// the full size).
private func pipeScale(_ full: Int) -> Int {
    #if canImport(Glibc)
    if getenv("TSAN_OPTIONS") != nil || getenv("ASAN_OPTIONS") != nil { return full / 10 }
    #endif
    return full
}

/// Runs `body` on a new thread with a 512 KiB stack and returns what it returned.
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}
