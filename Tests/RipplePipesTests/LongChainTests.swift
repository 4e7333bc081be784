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
            let count = 100_000
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

/// Runs `body` on a new thread with a 512 KiB stack and returns what it returned.
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 512 * 1024
        thread.start()
    }
}
