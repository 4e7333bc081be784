import Dispatch
import RippleCore
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Locks, thread-local storage, diagnostics")
struct LockTests {
    @Test func lockedCounterIsExactUnderContention() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.value == 80_000)
    }

    @Test func rawLockStoredInAnObjectExcludesConcurrentWriters() {
        final class Counter: @unchecked Sendable {
            let lock = RawLock()
            var count = 0   // guarded by `lock`
        }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.lock.withLock { counter.count += 1 } }
        }
        #expect(counter.lock.withLock { counter.count } == 80_000)
    }

    @Test func threadLocalUnretainedReadsSeeTheSameObjectWithoutOwningIt() {
        final class Box {}
        let storage = ThreadLocal<Box>()
        #expect(storage.unretained == nil)
        let first = storage.unretained(orMake: { Box() })
        let second = storage.unretained(orMake: { Box() })
        #expect(first.toOpaque() == second.toOpaque(), "made once per thread")
        weak let made = first.takeUnretainedValue()
        #expect(made != nil, "the key keeps it alive")
        storage.value = nil
        #expect(made == nil, "clearing the key releases it")
    }

    @Test func threadLocalValuesArePerThreadAndReleasedAtThreadExit() {
        final class Box { let name: String; init(_ name: String) { self.name = name } }
        let storage = ThreadLocal<Box>()
        storage.value = Box("main")

        final class Shared: @unchecked Sendable {
            let storage: ThreadLocal<Box>
            weak var threadBox: Box?
            var sawNothingFirst = false
            init(_ storage: ThreadLocal<Box>) { self.storage = storage }
        }
        let shared = Shared(storage)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(shared).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            let shared = Unmanaged<Shared>.fromOpaque(raw!).takeRetainedValue()
            shared.sawNothingFirst = shared.storage.value == nil
            let box = shared.storage.value(orMake: { Box("worker") })
            shared.threadBox = box
            return nil
        }, context)
        #expect(status == 0)
        pthread_join(thread, nil)

        #expect(shared.sawNothingFirst)
        #expect(shared.threadBox == nil, "the worker's value is released when the worker exits")
        #expect(storage.value?.name == "main")
        storage.value = nil
        #expect(storage.value == nil)
    }

    @Test func liveObjectCountersShowInDiagnostics() {
        let counter = LiveObjectCounter("LockTests.Probe")
        #expect(RippleDiagnostics.liveObjects["LockTests.Probe"] == 0)
        counter.increment()
        counter.increment()
        counter.decrement()
        #expect(counter.count == 1)
        #expect(RippleDiagnostics.liveObjects["LockTests.Probe"] == 1)
        counter.decrement()
    }
}
