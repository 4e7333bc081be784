import RipplePipes

enum PipesLeakWorkload {
    struct Actions: Sendable {
        var compute = ActionKey<Int, Int>("compute:")
        var notify = ActionKey<String, Void>("notify:")
    }

    final class Delegate: Sendable {
        func compute(_ value: Int) -> Int { value + 1 }
    }

    /// A three-pipe chain with requirements, states, a delegate and a bundle, called, then dropped.
    static func run() {
        let first = ActionPipe(Actions())
        let second = ActionPipe(Actions())
        let third = ActionPipe(Actions())
        let delegate = Delegate()
        first.registerAction(\.compute).action { _, value in value * 2 }
        second.registerAction(\.compute).returnNotNil().action { process, value in
            (process.upstreamReturn(as: Int.self) ?? 0) + value
        }
        third.registerAction(\.compute).delegate(delegate) { delegate, value in delegate.compute(value) }
        third.registerAction(\.notify).action { _, _ in }
        first.addPipe(second).addPipe(third)
        _ = third.compute(21)
        third.notify("done")
        let bundle = ActionPipe.bundle([first, second])
        _ = bundle.compute(1)
        second.removeFromChain()
    }
}
