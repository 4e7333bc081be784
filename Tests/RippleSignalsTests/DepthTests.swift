import Dispatch
import Foundation
import RippleCore
import Testing
@testable import RippleSignals

/// Issue 19's and 29's depth rule: long operator chains run, from anywhere in the stack, never a bare stack overflow. Each test runs in a child process (a crash fails the test, not the run) on a
/// thread with iOS's 512 KiB secondary-thread stack.
@Suite("Depth: long operator chains on a 512 KiB thread")
struct DepthTests {
    /// The operators the issue names, each chained `depth` times over a source that sends 1 and completes later.
    static func run(_ operatorName: String, depth: Int) {
        let holder = Locked<SignalSubscriber<Int, Never>?>(nil)
        let source = Signal<Int, Never> { subscriber in
            holder.withLock { $0 = subscriber }
            return .empty
        }
        let chain = DeepChainTests.chain(operatorName, over: source, depth: depth)
        let received = Locked<[Int]>([])
        let completed = Locked(false)
        let disposer = chain.subscribe(value: { value in received.withLock { $0.append(value) } },
                                       complete: { completed.withLock { $0 = true } })
        let subscriber = holder.withLock { $0 }!
        subscriber.send(1)
        subscriber.sendComplete()
        disposer.dispose()
        let expected = operatorName == "map" || operatorName == "flatMap" ? [1 + depth] : [1]
        precondition(received.withLock { $0 } == expected, "\(operatorName): received \(received.withLock { $0 })")
        precondition(completed.withLock { $0 }, "\(operatorName): did not complete")
    }

    /// Runs `body` on a new thread with a 512 KiB stack and waits for it.
    static func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
    }

    @Test("a chain of 100 operators subscribes, delivers, completes and disposes", arguments: ["map", "take", "then", "flatMap"])
    func fits(_ operatorName: String) async {
        await #expect(processExitsWith: .success) { [operatorName] in
            DepthTests.onSmallStack { DepthTests.run(operatorName, depth: 100) }
        }
    }

    /// Recurses through `frames` frames of at least 512 bytes each, then runs `body`: a caller that is already deep
    /// in its stack (counted in frames: nothing here reads a stack address).
    @inline(never)
    static func deepInStack(frames: Int, _ body: () -> Void) {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 1)
            if frames > 0 {
                deepInStack(frames: frames - 1, body)
            } else {
                body()
            }
            precondition(buffer[0] == 1)
        }
    }

    @Test("a chain of 10,000 subscribed from deep in the stack (150 frames of 512 bytes or more down a 512 KiB thread) runs to completion",
          arguments: ["map", "take", "then", "flatMap"])
    func fromDeepInTheStack(_ operatorName: String) async {
        // The trampoline's rule is counted (levels and nested steps), not read from the stack: a chain subscribed
        // with little stack left recurses no further than one subscribed at the top.
        await #expect(processExitsWith: .success) { [operatorName] in
            DeepChainTests.onSmallStack(operatorName, depth: 10_000) { source, chain in
                DepthTests.deepInStack(frames: 150) {
                    DeepChainTests.runToCompletion(operatorName, source: source, chain: chain, depth: 10_000)
                }
            }
        }
    }
}
