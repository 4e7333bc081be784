@testable import RipplePipes
import RippleCore
import Testing

/// Taking pipes out of a long chain one by one: each removal searched the chain for its pipe, so emptying a chain of n
/// pipes cost n² (8,000 pipes: 32 million comparisons). A removal now empties the pipe's own link and the chain
/// squeezes empty links out once they are half of it; the cost is counted (`compactedLinks`), not timed.
@Suite struct RemovalCostTests {
    @Test(arguments: ["head first", "tail first", "every other, then the rest"])
    func removingEveryPipeOfALongChainIsLinear(order: String) {
        let count = 8_000
        let pipes = (0..<count).map { _ in ActionPipe(CounterActions()) }
        for index in 1..<count {
            pipes[index - 1].addPipe(pipes[index])
        }
        let shared = chainOf(pipes[0])
        let indices: [Int] = switch order {
        case "head first": Array(0..<count)
        case "tail first": Array((0..<count).reversed())
        default: Array(stride(from: 0, to: count, by: 2)) + Array(stride(from: 1, to: count, by: 2))
        }
        var remaining = count
        for index in indices {
            pipes[index].removeFromChain()
            remaining = max(remaining - 1, 1)
            if remaining % 1_000 == 0 {
                #expect(shared.count == remaining)
            }
        }
        #expect(pipes.allSatisfy { $0.chainLength == 1 })
        // Each compaction visits the chain's links, at least half of them empty: at most 2n visits in all.
        #expect(shared.compactedLinks <= 2 * count, "\(order): \(shared.compactedLinks) links visited")
    }

    /// Removals interleaved with calls, merges and re-adds: the calls see exactly the pipes still chained, in order,
    /// and a pipe that left is held by no chain (its actions go with it).
    @Test func removalsKeepTheOrderAndLetActionsGo() {
        let pipes = (0..<10).map { _ in ActionPipe(CounterActions()) }
        for index in 1..<10 {
            pipes[index - 1].addPipe(pipes[index])
        }
        let released = Locked<[Int]>([])
        for (index, pipe) in pipes.enumerated() {
            let witness = Witness { released.withLock { $0.append(index) } }
            pipe.registerAction(\.tick).action { process, _ in
                withExtendedLifetime(witness) { (process.upstreamReturn(as: Int.self) ?? 0) * 10 + index }
            }
        }
        for index in [1, 3, 5, 7] {
            pipes[index].removeFromChain()
        }
        #expect(pipes[0].tick(0) == 24_689)
        #expect(pipes[9].chainLength == 6)
        // Back in, at the end: pipe 3 after 9.
        pipes[9].addPipe(pipes[3])
        #expect(pipes[2].tick(0) == 246_893)
        pipes[3].removeFromChain()
        #expect(pipes[0].tick(0) == 24_689)
        // A pipe that left and is then freed takes its actions with it, although the chain it left still lists its
        // (empty) link until the next compaction.
        var leaving: ActionPipe<CounterActions>? = ActionPipe(CounterActions())
        let onRelease: @Sendable () -> Void = { released.withLock { $0.append(99) } }
        leaving?.registerAction(\.tick).action { [witness = Witness(onRelease)] _, number in
            withExtendedLifetime(witness) { number }
        }
        pipes[9].addPipe(leaving!)
        leaving?.removeFromChain()
        leaving = nil
        #expect(released.value == [99])
        #expect(pipes[0].tick(0) == 24_689)
        withExtendedLifetime(pipes) {}
    }
}

/// Runs `onRelease` when freed.
private final class Witness: Sendable {
    let onRelease: @Sendable () -> Void

    init(_ onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    deinit {
        onRelease()
    }
}
