@testable import RipplePipes
import RippleCore
import Testing

/// `responds(to:)` on a long chain: it walked the chain's pipes on every question (linear in the chain's length, under
/// the graph lock). It now reads the chain's published call plan, as a call does, so asking from any pipe costs no
/// walk between two changes of the chain; the cost is counted (`coreWalks`), not timed.
@Suite struct RespondsCostTests {
    @Test func aLongChainAnswersRightAfterEveryChangeWithoutWalkingItPerQuestion() {
        let count = 10_000
        let pipes = (0..<count).map { _ in ActionPipe(CounterActions()) }
        for index in 1..<count {
            pipes[index - 1].addPipe(pipes[index])
        }
        let chain = chainOf(pipes[0])
        // Every 100th pipe, the head and the tail: a question from each.
        let askers = Array(stride(from: 0, to: count, by: 100)) + [count - 1]
        var changes = 0
        func answers<each Argument, Result>(_ key: KeyPath<CounterActions, ActionKey<repeat each Argument, Result>>,
                                            from indices: some Sequence<Int>) -> Set<Bool> {
            Set(indices.map { pipes[$0].responds(to: key) })
        }
        func expectWalks(_ phase: String) {
            // One walk per change at most: the next question (or call) builds the plan, the rest read it.
            #expect(chain.coreWalks <= changes + 1, "\(phase): \(chain.coreWalks) walks for \(changes) changes")
        }

        #expect(answers(\.tick, from: askers) == [false])
        expectWalks("no action")

        pipes[count - 1].registerAction(\.tick).action { _, number in number }
        changes += 1
        #expect(answers(\.tick, from: askers) == [true], "the tail's action answers for every pipe")
        #expect(answers(\.name, from: askers) == [false])
        expectWalks("an action at the tail")

        pipes[count - 1].removeFromChain()
        changes += 1
        #expect(answers(\.tick, from: askers.dropLast()) == [false], "the action left with the tail")
        #expect(pipes[count - 1].responds(to: \.tick), "the removed pipe answers for itself")
        expectWalks("the tail removed")

        pipes[count / 2].registerAction(\.tick).action { _, number in number }
        changes += 1
        #expect(answers(\.tick, from: askers.dropLast()) == [true])
        pipes[count / 2].unregisterAction(\.tick)
        changes += 1
        #expect(answers(\.tick, from: askers.dropLast()) == [false])
        expectWalks("an action in the middle, registered and unregistered")

        pipes[count - 2].addPipe(pipes[count - 1])
        changes += 1
        #expect(answers(\.tick, from: askers) == [true], "the tail is back, with its action")
        expectWalks("the tail added back")
    }
}
