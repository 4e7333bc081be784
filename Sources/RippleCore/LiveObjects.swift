import Synchronization

// Invariants: every kind registered with `RippleDiagnostics` is registered once, under `liveObjectReaders`' lock;
// a `LiveObjectTally` is registered before the `increment` that first counts an object returns, so any thread that
// can see that object sees its kind in `RippleDiagnostics.liveObjects`; counts are relaxed atomics (a snapshot across
// kinds is not atomic, only each count is exact once the threads that touched it are done).

/// Counts live instances of Ripple's long-lived objects (nodes, edges, subscriptions, pipes, …), always on.
///
/// Like RxSwift's resource counting, but available in release builds too: build a chain, drop it, and the counts
/// must return to where they were. Each room keeps one internal counter per kind of object.
public enum RippleDiagnostics {
    /// The number of live instances of every registered kind, by kind name.
    public static var liveObjects: [String: Int] {
        liveObjectReaders.withLock { readers in
            Dictionary(readers.flatMap { reader in
                let count = reader.count()
                return reader.names.map { ($0, count) }
            }, uniquingKeysWith: +)
        }
    }

    /// The total number of live instances of every registered kind.
    public static var totalLiveObjects: Int {
        liveObjects.values.reduce(0, +)
    }
}

/// One registered kind (or kinds counted together) and how to read its count.
struct LiveObjectReader: Sendable {
    let names: [String]
    let count: @Sendable () -> Int
}

/// Every counter and tally registered so far.
let liveObjectReaders = Locked<[LiveObjectReader]>([])

/// One kind's live-instance count. Call `increment()` in `init` and `decrement()` in `deinit`.
///
/// An atomic counter rather than a lock: it is touched twice in every object's life, and creating a chain makes
/// several objects, so a lock pair each was a visible share of the creating benchmarks. Kept in a global `let`, it
/// is initialised on first use (a `swift_once` per access on Linux); for the hottest kinds see ``LiveObjectTally``.
package final class LiveObjectCounter: Sendable {
    /// The kinds each instance counts as: usually one; an object that is two things at once (a node holding its
    /// transform) counts as both with one atomic operation.
    package let names: [String]
    private let live = Atomic<Int>(0)

    package init(_ name: String, _ otherNames: String...) {
        names = [name] + otherNames
        let reader = LiveObjectReader(names: names, count: { [self] in count })
        liveObjectReaders.withLock { $0.append(reader) }
    }

    package var count: Int {
        live.load(ordering: .relaxed)
    }

    // Wrapping: a checked `add` compiles to a compare-exchange loop with an overflow test (~4 instructions more
    // than one `lock xadd`), and a count of live objects cannot reach `Int.max`.
    @inline(__always)
    package func increment() {
        live.wrappingAdd(1, ordering: .relaxed)
    }

    @inline(__always)
    package func decrement() {
        live.wrappingSubtract(1, ordering: .relaxed)
    }
}

/// One kind's live-instance count, for a global `let` the program never has to initialise: a module-level tally is
/// laid out statically (two atomics, no object), so counting costs an atomic add and a load, with no `swift_once`.
/// (A `LiveObjectCounter` global takes a `swift_once` and a call per access: callgrind, SubjectCreating, the
/// subscriber's counter in one of these measured 2,879 → 2,844 instructions per subscription.)
///
/// It registers with ``RippleDiagnostics`` the first time it counts an object, through `register`, which must call
/// ``register(_:reader:)`` with a reader of this same tally:
/// ```
/// let subscriberTally = LiveObjectTally()
/// @inline(never) func registerSubscriberTally() {
///     subscriberTally.register("Signal.SignalSubscriber") { subscriberTally.count }
/// }
/// // init: subscriberTally.increment(registering: registerSubscriberTally)   deinit: subscriberTally.decrement()
/// ```
/// Until then the kind is absent from ``RippleDiagnostics/liveObjects``, as a `LiveObjectCounter`'s is until its
/// global is first touched.
@usableFromInline @frozen
package struct LiveObjectTally: ~Copyable, Sendable {
    @usableFromInline let live: Atomic<Int>
    @usableFromInline let registered: Atomic<Bool>

    // Inlinable so that a global of this type folds to a static initial value in the module that declares it.
    @inlinable
    package init() {
        live = Atomic(0)
        registered = Atomic(false)
    }

    @inlinable
    package var count: Int {
        live.load(ordering: .relaxed)
    }

    /// Counts one more live object; the first time (on any thread), calls `register` first.
    @inlinable @inline(__always)
    package func increment(registering register: () -> Void) {
        // Acquiring pairs with `register`'s releasing store: whoever sees the flag set sees the reader appended.
        if !registered.load(ordering: .acquiring) {
            register()
        }
        // Wrapping, as `LiveObjectCounter`'s (SubjectCreating 2,826 → 2,814 with both of the subscriber's).
        live.wrappingAdd(1, ordering: .relaxed)
    }

    @inlinable @inline(__always)
    package func decrement() {
        live.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Registers this tally once under `name`; `reader` must read this tally's ``count``. Later calls, from any
    /// thread, do nothing. Returns after the registration is visible to every thread.
    package func register(_ name: String, reader: @escaping @Sendable () -> Int) {
        liveObjectReaders.withLock { readers in
            guard !registered.load(ordering: .relaxed) else { return }
            readers.append(LiveObjectReader(names: [name], count: reader))
            registered.store(true, ordering: .releasing)
        }
    }
}
