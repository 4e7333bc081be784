#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RippleCore
import Synchronization

/// An immutable snapshot of a plumber's stages and handlers; a packet runs through the snapshot taken when it entered.
///
/// The plumber builds a new one whenever a stage or handler changes; its ports' next emits route packets through it
/// (see ``Route``), so running a packet takes no lock. A continuation called after the plumber was freed finds its core
/// shut down and stops.
///
/// The running path is `@inlinable` so it is specialised for the client's packet type: unspecialised, every stage
/// paid several generic-metadata lookups, more than the stage itself.
///
@usableFromInline
final class Chain<P: Packet>: Sendable {
    /// The stages: the first entries of a store that later snapshots share (see ``StageStore``).
    @usableFromInline let stages: StageList<P>
    let onOutput: (@Sendable (P) -> Void)?
    /// `onOutput` unwrapped (a no-op when there is none), for the hot path: calling a non-optional closure stored
    /// in a `let` borrows it, where unwrapping the optional retained and released its context on every packet.
    @usableFromInline let output: @Sendable (P) -> Void
    @usableFromInline let hasOutput: Bool
    let onBlocked: (@Sendable (P, StageInfo) -> Void)?
    let onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?
    /// Strong: the core never holds a chain once its plumber is gone, so this cycle does not outlive the plumber.
    @usableFromInline let core: PlumberCore<P>
    /// The pooled frames (see ``run(from:_:sink:)``), as many as threads that commonly emit at once.
    @usableFromInline let frames = FrameSlot<P>(count: 4)

    init(stages: StageList<P>, onOutput: (@Sendable (P) -> Void)?,
         onBlocked: (@Sendable (P, StageInfo) -> Void)?, onFailure: (@Sendable (P, StageInfo, any Error) -> Void)?,
         core: PlumberCore<P>) {
        self.stages = stages
        self.onOutput = onOutput
        // Not `onOutput ?? { _ in }`: the generic `??` would wrap the handler in two reabstraction thunks, paid on
        // every packet.
        if let onOutput {
            self.output = onOutput
        } else {
            self.output = { _ in }
        }
        self.hasOutput = onOutput != nil
        self.onBlocked = onBlocked
        self.onFailure = onFailure
        self.core = core
    }

    /// Runs `packet` from stage `start` on.
    ///
    /// A packet entering at the first stage borrows one of the chain's *frames*: one ``NextBox`` per stage, linked
    /// by `following`, which it hands back when done, so a synchronous chain allocates nothing per packet. A frame
    /// is used by one thread at a time; a packet that finds every frame in use (more threads emit at once, or
    /// handlers re-entered) makes its own, as do the rare paths (a late continuation, the stages after an
    /// asynchronous one). A port's packets use the frames of the port's route instead (``run(_:in:)``).
    ///
    /// No lock is taken on the synchronous path; only the rare paths (an async stage, an outcome without a handler,
    /// a late or dropped continuation) ask the core whether the plumber is still alive.
    @inlinable
    func run(from start: Int, _ packet: P, sink: SinkRef<P>?) {
        guard start < stages.count else {
            deliverOutput(packet, sink: sink)
            return
        }
        let runner = stages.stage(at: start)
        if runner.with({ $0.isAsync }) {
            startAsync(runner, at: start, packet, sink: sink)
            return
        }
        var blocked: Bool?
        if start == 0 {
            // The chain owns its first frame slot, and each slot the next.
            var slot = Optional(Borrowed(frames))
            while let frame = slot, blocked == nil {
                frame.with { frame in
                    if frame.claim() {
                        blocked = receive(runner, at: start, packet, sink: sink, on: pthread_self(),
                                          holder: &frame.head)
                        frame.release()
                    } else {
                        slot = frame.nextSlot.map { Borrowed($0) }
                    }
                }
            }
        }
        if blocked == nil {
            var own: NextBox<P>?
            blocked = receive(runner, at: start, packet, sink: sink, on: pthread_self(), holder: &own)
        }
        if blocked == true {
            reportBlocked(packet, at: start, sink: sink)
        }
    }

    /// Runs `packet` from the first stage in `frame`, which the caller has to itself (a port's route frame).
    @inlinable
    func run(_ packet: P, in frame: FrameHead<P>) {
        guard stages.count > 0 else {
            deliverOutput(packet, sink: nil)
            return
        }
        let runner = stages.stage(at: 0)
        if runner.with({ $0.isAsync }) {
            startAsync(runner, at: 0, packet, sink: nil)
            return
        }
        if receive(runner, at: 0, packet, sink: nil, on: pthread_self(), holder: &frame.head) {
            reportBlocked(packet, at: 0, sink: nil)
        }
    }

    /// Runs `packet` from the stage after `owner`'s, with the boxes of `owner`'s frame, on `owner`'s driving thread
    /// (only ``NextBox/pass(_:)``'s fast path calls it).
    @inlinable
    func runAfter(_ owner: NextBox<P>, _ packet: P) {
        let index = owner.index &+ 1
        guard index < stages.count else {
            deliverOutput(packet, sink: owner.sink)
            return
        }
        let runner = stages.stage(at: index)
        if runner.with({ $0.isAsync }) {
            startAsync(runner, at: index, packet, sink: owner.sink)
            return
        }
        let blocked: Bool
        if owner.followingInUse {
            // `owner`'s continuation was called again from inside the following stage (kept and called re-entrantly):
            // that stage's box is in use, so this run gets a box of its own.
            var own: NextBox<P>?
            blocked = receive(runner, at: index, packet, sink: owner.sink, on: owner.driverThread, holder: &own)
        } else {
            owner.followingInUse = true
            blocked = receive(runner, at: index, packet, sink: owner.sink, on: owner.driverThread,
                              holder: &owner.following)
            owner.followingInUse = false
        }
        if blocked {
            reportBlocked(packet, at: index, sink: owner.sink)
        }
    }

    /// Calls one continuation-style stage with the box in `holder` (made if there is none) and settles the box:
    /// back to idle when nobody else holds it, else it escapes and `holder` forgets it. Returns whether the packet
    /// was blocked there (the stage returned without calling or keeping its continuation).
    @inlinable
    func receive(_ runner: Borrowed<StageRunner<P>>, at index: Int, _ packet: P, sink: SinkRef<P>?,
                 on thread: pthread_t, holder: inout NextBox<P>?) -> Bool {
        if holder == nil {
            holder = NextBox(chain: self, index: index)
        }
        // Borrowed (`holder` keeps it), not retained: the uniqueness check below must see the holder's reference as
        // the only one.
        let box = Borrowed(holder.unsafelyUnwrapped)
        box.with { box in
            box.begin(sink: sink, on: thread)
            runner.with { $0.call(packet, Next(box: box)) }
            box.inReceive = false
        }
        if isKnownUniquelyReferenced(&holder) {
            // Through `holder`, not `box`: a use of the reference in `holder` keeps it alive for the whole call, where
            // a borrowed use would not (see below) if `holder` is a caller's local whose lifetime ends here.
            return !holder.unsafelyUnwrapped.settle()
        }
        // Moved out of `holder` and used through this strong reference, not `box`: the optimiser may end `holder`'s
        // reference at its last use as a reference (the uniqueness check above), and with `box` borrowed it released
        // it before `escape` ran. A late caller that dropped its copy meanwhile then freed the box under `escape`
        // (seen in release builds, about one run in three of ConcurrentEmitTests.nextUsedOnAnotherThreadDuringReceive).
        let escaped = holder.take().unsafelyUnwrapped
        escaped.escape(packet, chain: self)
        return false
    }

    @usableFromInline
    func startAsync(_ runner: Borrowed<StageRunner<P>>, at index: Int, _ packet: P, sink: SinkRef<P>?) {
        core.startAsync(runner.object, at: index, packet, chain: self, sink: sink?.object)
    }

    @inlinable
    func deliverOutput(_ packet: P, sink: SinkRef<P>?) {
        if sink == nil && hasOutput {
            output(packet)
        } else {
            deliverOutputSlowly(packet, sink: sink)
        }
    }

    @usableFromInline
    func deliverOutputSlowly(_ packet: P, sink: SinkRef<P>?) {
        if let onOutput {
            onOutput(packet)
        }
        // A `process` caller takes only the first outcome: a fan-out's later ones, without a handler, are counted.
        let taken = sink?.object.deliver(.output(packet)) ?? false
        if onOutput == nil && !taken {
            core.countUnhandled(\.outputs)
        }
    }

    @usableFromInline
    func reportBlocked(_ packet: P, at index: Int, sink: SinkRef<P>?) {
        let stage = stages.info(at: index)
        if let onBlocked {
            onBlocked(packet, stage)
        }
        let taken = sink?.object.deliver(.blocked(packet, stage: stage)) ?? false
        if onBlocked == nil && !taken {
            core.countUnhandled(\.blocked)
        }
    }

    func reportFailure(_ packet: P, at index: Int, error: any Error, sink: SinkRef<P>?) {
        let stage = stages.info(at: index)
        if let onFailure {
            onFailure(packet, stage, error)
        }
        let taken = sink?.object.deliver(.failed(packet, stage: stage, error: error)) ?? false
        if onFailure == nil && !taken {
            core.countUnhandled(\.failures)
        }
    }
}
