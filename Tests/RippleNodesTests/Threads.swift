#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import RippleCore
import Synchronization

// Real threads for the race tests of this target: started together (a spin barrier), so their work overlaps, and
// enough rounds to overlap under a sanitizer too.

/// Runs `body(thread)` on `count` threads of their own, started together; returns once all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    // Threads of their own (not Dispatch's pool, which may run fewer at once than the barrier waits for).
    let start = RoundBarrier(count)
    let done = (0..<count).map { thread in
        startThread {
            start.wait()
            body(thread)
        }
    }
    for finished in done { finished.wait() }
}

/// Starts `body` on a thread of its own; the returned semaphore is signalled once it has returned and been let go
/// of (with what it captured), as joining the thread would.
func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    var handle = pthread_t()
    let created = pthread_create(&handle, nil, { raw in
        let done: DispatchSemaphore
        do {
            let job = Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue()
            done = job.done
            job.run()
        }   // `job`, the last reference to `body`, goes here
        done.signal()
        return nil
    }, Unmanaged.passRetained(ThreadJob(body, done: done)).toOpaque())
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_detach(handle)
    return done
}

final class ThreadJob: Sendable {
    let run: @Sendable () -> Void
    let done: DispatchSemaphore

    init(_ run: @escaping @Sendable () -> Void, done: DispatchSemaphore) {
        self.run = run
        self.done = done
    }
}

/// `rounds` rounds of `count` threads: `setUp` makes the round's state (on the calling thread), every thread runs
/// `body(thread, state)` at once, then `check(state)` runs once they are all done. The threads live across rounds
/// (a barrier per round), so the rounds are cheap and every round overlaps.
func inRounds<State: Sendable>(
    _ rounds: Int, threads count: Int, setUp: @escaping @Sendable () -> State,
    _ body: @escaping @Sendable (Int, State) -> Void, check: @escaping @Sendable (State) -> Void
) {
    let barrier = RoundBarrier(count)
    let current = Locked<State?>(nil)
    onThreads(count) { thread in
        for _ in 0..<rounds {
            if thread == 0 { current.withLock { $0 = setUp() } }
            barrier.wait()
            body(thread, current.value!)
            barrier.wait()
            if thread == 0 { check(current.value!) }
        }
    }
}

/// A reusable spin barrier (the threads yield while they wait).
final class RoundBarrier: Sendable {
    private let count: Int
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    init(_ count: Int) {
        self.count = count
    }

    func wait() {
        let seen = generation.load(ordering: .acquiring)
        if arrived.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == count {
            arrived.store(0, ordering: .relaxed)
            generation.wrappingAdd(1, ordering: .acquiringAndReleasing)
            return
        }
        while generation.load(ordering: .acquiring) == seen { sched_yield() }
    }
}

/// Fewer rounds under a sanitizer (each set costs far more there), still enough to overlap.
let sanitized: Bool = {
    #if canImport(Glibc)
    return getenv("TSAN_OPTIONS") != nil || getenv("ASAN_OPTIONS") != nil
    #else
    return false
    #endif
}()

func rounds(_ full: Int) -> Int {
    sanitized ? max(full / 10, 1_000) : full
}
