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
    let box: NextBox<P>

    /// Passes `packet` to the next stage (or to the output after the last stage).
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
final class NextBox<P: Packet>: @unchecked Sendable {
    let chain: Chain<P>
    let index: Int
    let packet: P
    let sink: ResultSink<P>?
    // Only dereferenced while `inReceive` on `driverThread`: the running chain holds the plumber strongly then.
    unowned(unsafe) let plumber: Plumber<P>
    let driverThread: pthread_t
    var inReceive = true
    var calledSync = false
    var calledLater = false
    var publishedCalled = false

    init(chain: Chain<P>, index: Int, packet: P, plumber: Plumber<P>, sink: ResultSink<P>?) {
        self.chain = chain
        self.index = index
        self.packet = packet
        self.plumber = plumber
        self.sink = sink
        self.driverThread = pthread_self()
    }

    func pass(_ next: P) {
        if isOnDriverThread && inReceive {
            // The fast path: no lock, the plumber is alive because the chain running below us holds it.
            calledSync = true
            chain.run(from: index + 1, next, plumber: plumber, sink: sink)
            return
        }
        chain.lock.withLock { calledLater = true }
        // A plumber freed meanwhile drops the continuation without a report (documented).
        guard let plumber = chain.plumber else { return }
        chain.run(from: index + 1, next, plumber: plumber, sink: sink)
    }

    /// Called by the chain once `receive` returned, while it still holds the box.
    func receiveReturned(uniquelyHeld: Bool) {
        inReceive = false
        if !uniquelyHeld {
            // Someone kept the continuation: it may be released on another thread, which must see our answer.
            let called = calledSync
            chain.lock.withLock { publishedCalled = called }
        }
    }

    private var isOnDriverThread: Bool {
        pthread_equal(pthread_self(), driverThread) != 0
    }

    deinit {
        var called = isOnDriverThread && calledSync
        if !called {
            called = chain.lock.withLock { calledLater || publishedCalled }
        }
        guard !called, let plumber = chain.plumber else { return }
        chain.reportBlocked(packet, at: index, plumber: plumber, sink: sink)
    }
}
