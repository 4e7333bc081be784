import RippleCore
import Testing

/// Watches objects through weak references, to prove they are freed once a scope ends.
public final class LeakTracker: @unchecked Sendable {
    private struct Entry {
        weak var object: AnyObject?
        let label: String
    }

    // Guarded by `lock` inside `Locked`.
    private let entries = Locked<[Entry]>([])

    public init() {}

    /// Starts watching `object`; `label` names it in a failure (defaults to its type).
    @discardableResult
    public func track<Object: AnyObject>(_ object: Object, _ label: String? = nil) -> Object {
        let entry = Entry(object: object, label: label ?? String(describing: type(of: object)))
        entries.withLock { $0.append(entry) }
        return object
    }

    /// Labels of the watched objects that are still alive.
    public var alive: [String] {
        entries.withLock { $0.filter { $0.object != nil }.map(\.label) }
    }

    /// How many objects are being watched.
    public var trackedCount: Int {
        entries.withLock { $0.count }
    }
}

/// Runs `body`, then records a test issue for every object `body` tracked that is still alive afterwards.
///
/// ```swift
/// expectReleased { tracker in
///     let node = tracker.track(MutableNode(1))
///     let doubled = tracker.track(node.map { $0 * 2 })
///     _ = doubled
/// }
/// ```
/// - Returns: the labels of leaked objects (empty when everything was freed).
@discardableResult
public func expectReleased(sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: (LeakTracker) throws -> Void) rethrows -> [String] {
    let tracker = LeakTracker()
    try body(tracker)
    return reportLeaks(tracker, sourceLocation: sourceLocation)
}

/// The `async` form of ``expectReleased(sourceLocation:_:)``.
@discardableResult
public func expectReleased(sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: (LeakTracker) async throws -> Void) async rethrows -> [String] {
    let tracker = LeakTracker()
    try await body(tracker)
    return reportLeaks(tracker, sourceLocation: sourceLocation)
}

private func reportLeaks(_ tracker: LeakTracker, sourceLocation: SourceLocation) -> [String] {
    let leaked = tracker.alive
    for label in leaked {
        Issue.record("\(label) is still alive after the scope ended (leak or retain cycle)",
                     sourceLocation: sourceLocation)
    }
    return leaked
}
