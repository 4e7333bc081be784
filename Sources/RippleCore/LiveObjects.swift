/// Counts live instances of Ripple's long-lived objects (nodes, edges, subscriptions, pipes, …), always on.
///
/// Like RxSwift's resource counting, but available in release builds too: build a chain, drop it, and the counts
/// must return to where they were. Each room keeps one internal counter per kind of object.
public enum RippleDiagnostics {
    /// The number of live instances of every registered kind, by kind name.
    public static var liveObjects: [String: Int] {
        LiveObjectCounter.registry.withLock { counters in
            Dictionary(counters.map { ($0.name, $0.count) }, uniquingKeysWith: +)
        }
    }

    /// The total number of live instances of every registered kind.
    public static var totalLiveObjects: Int {
        liveObjects.values.reduce(0, +)
    }
}

/// One kind's live-instance count. Call `increment()` in `init` and `decrement()` in `deinit`.
package final class LiveObjectCounter: @unchecked Sendable {
    static let registry = Locked<[LiveObjectCounter]>([])

    package let name: String
    // Guarded by `lock`.
    private var live = 0
    private let lock = Lock()

    package init(_ name: String) {
        self.name = name
        Self.registry.withLock { $0.append(self) }
    }

    package var count: Int {
        lock.withLock { live }
    }

    @inline(__always)
    package func increment() {
        lock.lock()
        live += 1
        lock.unlock()
    }

    @inline(__always)
    package func decrement() {
        lock.lock()
        live -= 1
        lock.unlock()
    }
}
