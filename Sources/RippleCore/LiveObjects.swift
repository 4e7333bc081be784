import Synchronization

/// Counts live instances of Ripple's long-lived objects (nodes, edges, subscriptions, pipes, …), always on.
///
/// Like RxSwift's resource counting, but available in release builds too: build a chain, drop it, and the counts
/// must return to where they were. Each room keeps one internal counter per kind of object.
public enum RippleDiagnostics {
    /// The number of live instances of every registered kind, by kind name.
    public static var liveObjects: [String: Int] {
        LiveObjectCounter.registry.withLock { counters in
            Dictionary(counters.flatMap { counter in counter.names.map { ($0, counter.count) } }, uniquingKeysWith: +)
        }
    }

    /// The total number of live instances of every registered kind.
    public static var totalLiveObjects: Int {
        liveObjects.values.reduce(0, +)
    }
}

/// One kind's live-instance count. Call `increment()` in `init` and `decrement()` in `deinit`.
///
/// An atomic counter rather than a lock: it is touched twice in every object's life, and creating a chain makes
/// several objects, so a lock pair each was a visible share of the creating benchmarks.
package final class LiveObjectCounter: Sendable {
    static let registry = Locked<[LiveObjectCounter]>([])

    /// The kinds each instance counts as: usually one; an object that is two things at once (a node holding its
    /// transform) counts as both with one atomic operation.
    package let names: [String]
    private let live = Atomic<Int>(0)

    package init(_ name: String, _ otherNames: String...) {
        names = [name] + otherNames
        Self.registry.withLock { $0.append(self) }
    }

    package var count: Int {
        live.load(ordering: .relaxed)
    }

    @inline(__always)
    package func increment() {
        live.add(1, ordering: .relaxed)
    }

    @inline(__always)
    package func decrement() {
        live.subtract(1, ordering: .relaxed)
    }
}
