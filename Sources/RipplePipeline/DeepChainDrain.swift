import RippleCore

// How a synchronous chain of any length runs on a small stack.
//
// Invariants:
// - A stage that calls `next` during its `receive` runs the following stage inside that call, so the stack grows by
//   one stage's frames per stage: ~2 KiB each in a debug build (measured), so a 512 KiB thread (an iOS secondary
//   thread's) died with SIGSEGV, and no message, a few hundred stages deep.
// - The chain is cut before every stage whose index is a multiple of `deepChainCut` (32, 64, …): a synchronous `next`
//   into such a stage hands over to the thread's drain. When no drain is running, that `next` starts one: it runs
//   the following stage as usual, then, once that returns, the runs queued meanwhile, one at a time, in the order they
//   were queued (each from its stage on, as a continuation called late would), until none is left. While the drain
//   runs, each such `next` queues the rest of the chain there and returns at once. A run holds at most one cut's
//   worth of stages on the stack above the drain, and the drain at most two, however long the chain is.
// - The cut is a test of the stage's index, which its continuation already holds: the fast path stores nothing
//   more per stage (a depth counter per continuation cost ~7 instructions a stage, callgrind, Pipeline4Stages).
// - The drain is the thread's own (thread-local), touched only by its thread; whatever it queued has run when the
//   `next` that started it returns, so `runSerially` still has its outcome when the call returns.

/// Where the chain is cut (see above): a power of two, so the test is a mask. At ~2 KiB a stage in a debug build,
/// twice this is ~128 KiB of stack.
@inlinable var deepChainCut: Int { 32 }

/// The calling thread's queue of chain runs put off by a deep synchronous chain (see above).
final class DeepChainDrain {
    private(set) var isRunning = false
    private var queued: [() -> Void] = []

    /// The calling thread's drain.
    static var current: DeepChainDrain {
        deepChainDrains.unretained(orMake: DeepChainDrain.init).takeUnretainedValue()
    }

    /// Queues `run`; the running drain calls it after what was queued before. Call only while ``isRunning``.
    func queue(_ run: @escaping () -> Void) {
        precondition(isRunning, "RipplePipeline: a chain run queued with no drain running")
        queued.append(run)
    }

    /// Runs `body` as if no drain were running, then puts back the one that was (with what it had queued): for a
    /// caller that needs its chain's outcome when `body` returns.
    func isolated(_ body: () -> Void) {
        let (wasRunning, waiting) = (isRunning, queued)
        (isRunning, queued) = (false, [])
        body()
        (isRunning, queued) = (wasRunning, waiting)
    }

    /// Runs `first`, then every run queued meanwhile (including those the queued runs queue), in order.
    func run(_ first: () -> Void) {
        isRunning = true
        first()
        var next = 0
        while next < queued.count {
            let run = queued[next]
            next += 1
            run()
        }
        queued.removeAll()
        isRunning = false
    }
}

private let deepChainDrains = ThreadLocal<DeepChainDrain>()
