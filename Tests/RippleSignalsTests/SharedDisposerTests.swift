import RippleCore
import RippleSignals
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Disposer.empty made on first use; attach drops disposers with nothing to release")
struct SharedDisposerTests {
    /// In a process of its own, so `Disposer.empty` has not been read yet: eight threads race to read it first and
    /// all get the same instance, disposed from the start and described as empty.
    @Test func racingFirstReadsOfEmptyShareOneInstance() async {
        await #expect(processExitsWith: .success) {
            // `Locked`, not `Synchronization.Mutex`: on Linux the Mutex's contended path runs in the uninstrumented
            // standard library, so ThreadSanitizer misses its ordering and reports the array it guards (1 run in 5).
            let seen = Locked<[ObjectIdentifier]>([])
            var threads: [pthread_t] = []
            for _ in 0..<8 {
                let context = Unmanaged.passRetained(seen).toOpaque()
                var thread = pthread_t()
                let status = pthread_create(&thread, nil, { raw in
                    let seen = Unmanaged<Locked<[ObjectIdentifier]>>.fromOpaque(raw!).takeRetainedValue()
                    let empty = Disposer.empty
                    precondition(empty.isDisposed, "Disposer.empty is not disposed from the start")
                    precondition("\(empty)" == "Disposer(empty, ended)", "Disposer.empty: \(empty)")
                    seen.withLock { $0.append(ObjectIdentifier(empty)) }
                    return nil
                }, context)
                precondition(status == 0)
                threads.append(thread)
            }
            for thread in threads { pthread_join(thread, nil) }
            let identities = seen.value
            precondition(identities.count == 8, "not every thread read Disposer.empty")
            precondition(Set(identities).count == 1,
                         "racing first reads of Disposer.empty made \(Set(identities).count) instances")
            precondition(ObjectIdentifier(Disposer.empty) == identities[0])
        }
    }

    /// An action that returns a plain disposer it already disposed: the subscription drops it (nothing left to
    /// release) and its cleanup never runs a second time, on disposal or when the subscription ends.
    @Test func alreadyDisposedCleanupIsNotRunAgain() {
        let runs = Locked(0)
        let subject = Signal<Int, Never> { subscriber in
            let cleanup = Disposer { runs.withLock { $0 += 1 } }
            cleanup.dispose()
            subscriber.send(1)
            return cleanup
        }
        let values = Locked<[Int]>([])
        let disposer = subject.subscribe(value: { value in values.withLock { $0.append(value) } })
        #expect(values.withLock { $0 } == [1])
        #expect(runs.withLock { $0 } == 1)
        disposer.dispose()
        #expect(runs.withLock { $0 } == 1)

        let completing = Signal<Int, Never> { subscriber in
            let cleanup = Disposer { runs.withLock { $0 += 1 } }
            cleanup.dispose()
            subscriber.sendComplete()
            return cleanup
        }
        let completed = Locked(0)
        _ = completing.subscribe(complete: { completed.withLock { $0 += 1 } })
        #expect(completed.withLock { $0 } == 1)
        #expect(runs.withLock { $0 } == 2)
    }

    /// A cleanup not yet run is still kept and run once on disposal (the flag test drops only spent disposers).
    @Test func pendingCleanupStillRunsOnce() {
        let runs = Locked(0)
        // The action keeps its subscriber (a subscriber nobody holds ends its subscription when freed).
        let kept = Locked<SignalSubscriber<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { subscriber in
            kept.withLock { $0 = subscriber }
            return Disposer { runs.withLock { $0 += 1 } }
        }
        let disposer = signal.subscribe(value: { _ in })
        #expect(runs.withLock { $0 } == 0)
        disposer.dispose()
        disposer.dispose()
        #expect(runs.withLock { $0 } == 1)
        kept.withLock { $0 = nil }
        #expect(runs.withLock { $0 } == 1)
    }
}
