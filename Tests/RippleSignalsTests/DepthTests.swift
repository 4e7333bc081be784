import Dispatch
import Foundation
import RippleCore
import Testing
@testable import RippleSignals

/// Issue 19's depth rule: long operator chains either run, or stop with a message naming the API, the depth and the
/// stack, never a bare stack overflow. Each test runs in a child process (a crash fails the test, not the run) on a
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

    /// Recurses through at least `bytes` of stack, then runs `body`: a caller that is already deep in its stack.
    static func deepInStack(_ bytes: UInt, _ body: () -> Void) {
        descend(until: stackAddress() - bytes, body)
    }

    @inline(never)
    static func descend(until target: UInt, _ body: () -> Void) {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 1)
            if stackAddress() > target {
                descend(until: target, body)
            } else {
                body()
            }
            precondition(buffer[0] == 1)
        }
    }

    @Test("a chain of 10,000 subscribed from deep in the stack, where nothing can queue, stops with a message naming the API, depth and stack",
          arguments: ["map", "take", "then", "flatMap"])
    func tooDeep(_ operatorName: String) async {
        // Chains of 10,000 run from anywhere near the top of a thread's stack (DeepChainTests); one subscribed from
        // below its middle, outside any subscription, delivery or disposal, has no trampoline root and recurses
        // until the message.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [operatorName] in
            DeepChainTests.onSmallStack(operatorName, depth: 10_000) { _, chain in
                DepthTests.deepInStack(300 * 1024) { _ = chain.subscribe() }
            }
        }
        let report = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        // Whichever nested step reaches the limit first is named: the subscription, or (for `then`, which
        // subscribes its next signal from inside the completion of the first) the delivery just before it; which
        // one depends on frame sizes (the thread sanitizer's frames are larger).
        let apis = ["Signal.subscribe", "SignalSubscriber.send", "SignalSubscriber.sendComplete"]
        #expect(apis.contains { report.contains("Ripple: \($0) reached ") } && report.contains("nested subscriptions")
            && report.contains("of this thread's 512 KiB stack left"), "\(operatorName): \(report)")
    }
}
