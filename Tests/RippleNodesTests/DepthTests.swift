import Foundation
import RippleCore
import RippleNodes
import Testing

/// No recursion proportional to the graph: a 100,000-deep chain is built, set, traversed and dropped on a thread
/// with a 512 KiB stack (an iOS secondary thread's), in a child process so that a stack overflow fails the test.
@Suite("Depth: deep chains on a small stack")
struct DepthTests {
    @Test func aHundredThousandDeepChainOnA512KiBStack() async {
        await #expect(processExitsWith: .success) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let depth = 100_000
                let source = MutableNode(0)
                var tail: Node<Int> = source
                for _ in 0..<depth { tail = tail.map { $0 &+ 1 } }
                source.value = 1
                guard tail.value == depth + 1 else { exit(2) }
                var visited = 0
                tail.traverse { _ in
                    visited += 1
                    return .proceed
                }
                guard visited == depth + 1 else { exit(3) }
                guard tail.graph().split(separator: "\n").count == 2 * depth + 4 else { exit(4) }
                weak let weakTail = tail
                tail = source
                guard weakTail == nil, source.downstreamTransforms.isEmpty else { exit(5) }
                done.signal()
            }
            thread.stackSize = 512 * 1024
            thread.start()
            done.wait()
        }
    }

    /// The same depth reached the other way: 100,000 sources each linked above the last (`top.link(to: source)`),
    /// as EasyReact's `linkTo:` builds a chain from its end. Each link lowers the new source's rank instead of raising
    /// the chain below (a walk per link made this quadratic: 8,000 links took 13 s in release).
    @Test func aHundredThousandSourcesLinkedAboveOneAnotherOnA512KiBStack() async {
        await #expect(processExitsWith: .success) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let depth = 100_000
                let tail = MutableNode<Int>()
                let bag = CancelBag()
                let heard = Locked([Int]())
                tail.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
                var top = tail
                var links: [any CancelToken] = []
                for _ in 0..<depth {
                    let source = MutableNode<Int>()
                    links.append(top.link(to: source))
                    top = source
                }
                top.value = 7
                guard heard.value == [7], tail.value == 7 else { exit(2) }
                for link in links { link.cancel() }
                top.value = 8
                guard heard.value == [7], tail.upstreamTransforms.isEmpty else { exit(3) }
                bag.cancel()
                done.signal()
            }
            thread.stackSize = 512 * 1024
            thread.start()
            done.wait()
        }
    }

    @Test func aDeepChainSettlesInOneTransactionWithOneValuePerNode() {
        let bag = CancelBag()
        let source = MutableNode(0)
        var tail: Node<Int> = source
        for _ in 0..<1_000 { tail = tail.map { $0 + 1 } }
        let heard = Locked([Int]())
        tail.listened(by: bag).withBlock { value in heard.withLock { $0.append(value) } }
        source.value = 5
        source.value = 6
        #expect(heard.value == [1_000, 1_005, 1_006])
    }
}
