#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// One stage's continuation for the packet it is receiving; reused for the next packet unless a stage kept it.
///
/// A box belongs to a frame (see ``Chain/run(from:_:sink:)``): the box of stage `index` holds the box of the
/// following stage in `following`, and a frame is used by one thread at a time. When `receive` returns and the
/// frame's reference is the only one left, nobody can call or copy the continuation any more, so the box goes back
/// to idle and serves the next packet: no allocation per packet. When a stage kept a copy, the box *escapes*: the
/// frame forgets it, and its release without a call (its `deinit`) is how the block is detected.
///
/// `@unchecked Sendable`: the plain stored properties are written only by the thread driving the frame — before the
/// continuation can reach another thread (`begin`), or before `state` is published with a releasing store
/// (`escape`) — and `inReceive` / `calledSync` / `following` are read only on that thread. Other threads (a late
/// call, the last release) read the rest only after an acquiring read of `state`, or fields set before handoff.
@usableFromInline
final class NextBox<P: Packet>: @unchecked Sendable {
    /// Borrowed (see ``Borrowed``): a frame's boxes live inside their chain while idle; an escaped box keeps the
    /// chain alive through `keptChain`, and while a stage receives, the thread running the chain keeps it alive.
    @usableFromInline let chainRef: Borrowed<Chain<P>>
    @usableFromInline let index: Int
    /// Unretained like `chain`: whoever runs the chain holds the sink; an escaped box holds it in `keptSink`.
    @usableFromInline @exclusivity(unchecked) var sink: SinkRef<P>?
    @usableFromInline @exclusivity(unchecked) var driverThread: pthread_t
    @usableFromInline @exclusivity(unchecked) var inReceive = false
    @usableFromInline @exclusivity(unchecked) var calledSync = false
    /// The pooled box of the next stage, in the same frame.
    @usableFromInline @exclusivity(unchecked) var following: NextBox<P>?
    /// Whether `following` is receiving a packet: a re-entrant call of this continuation must not reuse it.
    @usableFromInline @exclusivity(unchecked) var followingInUse = false
    /// Set when the box escapes: what its `deinit` needs to report a block.
    @exclusivity(unchecked) var keptChain: Chain<P>?
    @exclusivity(unchecked) var keptSink: ResultSink<P>?
    @exclusivity(unchecked) var packet: P?
    /// ``NextBoxFlags`` bits; see there.
    @usableFromInline let state = Atomic<UInt8>(0)

    @usableFromInline
    init(chain: Chain<P>, index: Int) {
        self.chainRef = Borrowed(chain)
        self.index = index
        self.driverThread = pthread_self()
    }

    /// The chain, retained for the caller (rare paths).
    @usableFromInline
    var chain: Chain<P> {
        chainRef.object
    }

    /// Prepares the box for one `receive` on this thread.
    @inlinable @inline(__always)
    func begin(sink: SinkRef<P>?, on thread: pthread_t) {
        self.sink = sink
        driverThread = thread
        calledSync = false
        inReceive = true
    }

    @inlinable
    func pass(_ next: P) {
        if pthread_self() == driverThread && inReceive {
            // The fast path: no lock, no atomic, no plumber lookup.
            calledSync = true
            if (index &+ 1) & (deepChainCut &- 1) != 0 {
                chainRef.with { $0.runAfter(self, next) }
            } else {
                passDeep(next)
            }
        } else {
            passLate(next)
        }
    }

    /// The fast path's `next` of a stage before a cut: through the thread's drain (see `DeepChainDrain.swift`).
    @usableFromInline
    func passDeep(_ next: P) {
        let drain = DeepChainDrain.current
        if drain.isRunning {
            // Read now: the box goes back to idle, and may serve another packet, once this `receive` returns.
            let chain = self.chain
            let sink = self.sink?.object
            let index = self.index
            drain.queue { chain.run(from: index + 1, next, sink: sink.map { Borrowed($0) }) }
        } else {
            drain.run { chainRef.with { $0.runAfter(self, next) } }
        }
    }

    /// A continuation called after `receive` returned, or from another thread.
    @usableFromInline
    func passLate(_ next: P) {
        // Read before the flag is published: once the driver sees the flag it may reuse the box.
        let chain = self.chain
        let sink = self.sink
        let index = self.index
        state.bitwiseOr(NextBoxFlags.calledLate, ordering: .acquiringAndReleasing)
        // A plumber freed meanwhile drops the continuation without a report (documented).
        guard chain.core.isAlive else { return }
        chain.run(from: index + 1, next, sink: sink)
    }

    /// Whether `next` was called during the `receive` that just returned; the box is idle again afterwards.
    /// Only when the caller's reference is the only one left.
    @inlinable
    func settle() -> Bool {
        // Always read `state`: its acquiring load orders a late caller's reads of this box before our reset.
        let calledLate = state.load(ordering: .acquiring) & NextBoxFlags.calledLate != 0
        let called = calledSync || calledLate
        sink = nil
        state.store(0, ordering: .relaxed)
        return called
    }

    /// A stage kept a copy: from here on the box lives on its own and its `deinit` reports a block.
    @usableFromInline
    func escape(_ packet: P, chain: Chain<P>) {
        self.packet = packet
        keptChain = chain
        keptSink = sink?.object
        keptSink?.stageKeptNext(at: index)
        // The following boxes stay with the frame's owner no longer; an escaped box needs none of them.
        following = nil
        let published = NextBoxFlags.escaped | (calledSync ? NextBoxFlags.calledSync : 0)
        state.bitwiseOr(published, ordering: .releasing)
    }

    deinit {
        let flags = state.load(ordering: .acquiring)
        // Idle boxes (freed with their frame) and called ones report nothing.
        guard flags & NextBoxFlags.escaped != 0, flags & (NextBoxFlags.calledLate | NextBoxFlags.calledSync) == 0,
              let keptChain, let packet else { return }
        // A plumber freed meanwhile drops the packet without a report (documented).
        guard keptChain.core.isAlive else { return }
        keptChain.reportBlocked(packet, at: index, sink: keptSink.map { Borrowed($0) })
    }
}

/// The bits of ``NextBox``'s atomic `state` (outside the generic class: it cannot hold static stored properties).
@usableFromInline
enum NextBoxFlags {
    /// `next` was called off the driving thread or after `receive` returned.
    @inlinable static var calledLate: UInt8 { 1 }
    /// The box escaped; `keptChain` and `packet` are set.
    @inlinable static var escaped: UInt8 { 2 }
    /// Published at escape: `next` was called during `receive`.
    @inlinable static var calledSync: UInt8 { 4 }
}
