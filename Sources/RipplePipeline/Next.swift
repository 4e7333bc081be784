#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RippleCore

/// The continuation a ``PipelineStage`` calls to pass a packet to the rest of the chain.
///
/// Call it with the packet (or a new one) to continue: during ``PipelineStage/receive(_:next:)`` the rest of the
/// chain runs inside the call; called later, from any thread, the rest of the chain runs on the calling thread.
/// Calling it twice fans out: the rest of the chain runs once per call. Releasing every copy without calling it
/// blocks the packet, which ``Plumber/onBlocked(_:)`` reports with the stage's name.
///
/// If the plumber has been freed by the time a kept `Next` is called or dropped, nothing runs and nothing is reported.
public struct Next<P: Packet>: Sendable {
    @usableFromInline let box: NextBox<P>

    @inlinable
    init(box: NextBox<P>) {
        self.box = box
    }

    /// Passes `packet` to the next stage (or to the output after the last stage).
    @inlinable
    public func callAsFunction(_ packet: P) {
        box.pass(packet)
    }

    /// The stage this continuation belongs to.
    public var stage: StageInfo {
        box.chain.infos[box.index]
    }
}

/// One stage's continuation for one packet; its release without a call is how a block is detected.
///
/// `@unchecked Sendable`: `inReceive` and `calledSync` are only touched on `driverThread` (the thread running the
/// stage's `receive`); `calledLater` and `publishedCalled` only under `chain.lock`. Deinit on another thread reads only
/// the latter.
@usableFromInline
final class NextBox<P: Packet>: @unchecked Sendable {
    @usableFromInline let chain: Chain<P>
    @usableFromInline let index: Int
    @usableFromInline let packet: P
    @usableFromInline let sink: ResultSink<P>?
    @usableFromInline let driverThread: pthread_t
    @usableFromInline var inReceive = true
    @usableFromInline var calledSync = false
    var calledLater = false
    var publishedCalled = false

    @inlinable
    init(chain: Chain<P>, index: Int, packet: P, sink: ResultSink<P>?) {
        self.chain = chain
        self.index = index
        self.packet = packet
        self.sink = sink
        self.driverThread = pthread_self()
    }

    @inlinable
    func pass(_ next: P) {
        if isOnDriverThread && inReceive {
            // The fast path: no lock, no plumber lookup.
            calledSync = true
            chain.run(from: index + 1, next, sink: sink)
        } else {
            passLate(next)
        }
    }

    /// A continuation called after `receive` returned, or from another thread.
    @usableFromInline
    func passLate(_ next: P) {
        chain.lock.withLock { calledLater = true }
        // A plumber freed meanwhile drops the continuation without a report (documented).
        guard chain.core.isAlive else { return }
        chain.run(from: index + 1, next, sink: sink)
    }

    /// Called by the chain once `receive` returned, while it still holds the box.
    @inlinable
    func receiveReturned(uniquelyHeld: Bool) {
        inReceive = false
        if !uniquelyHeld {
            publishCalled()
        }
    }

    /// Someone kept the continuation: it may be released on another thread, which must see whether it was called.
    @usableFromInline
    func publishCalled() {
        let called = calledSync
        chain.lock.withLock { publishedCalled = called }
    }

    @inlinable
    var isOnDriverThread: Bool {
        pthread_equal(pthread_self(), driverThread) != 0
    }

    deinit {
        var called = isOnDriverThread && calledSync
        if !called {
            called = chain.lock.withLock { calledLater || publishedCalled }
        }
        // A plumber freed meanwhile drops the packet without a report (documented).
        guard !called, chain.core.isAlive else { return }
        chain.reportBlocked(packet, at: index, sink: sink)
    }
}
