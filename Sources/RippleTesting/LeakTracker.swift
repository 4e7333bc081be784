import RippleCore
import Testing
#if canImport(XCTest)
import XCTest
#endif

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

/// Runs `body`, then records a test failure for every object `body` tracked that is still alive afterwards.
///
/// Inside a Swift Testing test the failure is an `Issue`; inside an `XCTestCase` (no current Swift Testing test) it
/// is an `XCTFail` at the caller's line, so a leak fails either kind of test. A task detached from a Swift Testing
/// test has no current test and reports through XCTest too: call it from the test's own task.
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
public func expectReleased(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                           column: UInt = #column, _ body: (LeakTracker) throws -> Void) rethrows -> [String] {
    let tracker = LeakTracker()
    try body(tracker)
    return reportLeaks(tracker, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The `async` form of `expectReleased(fileID:filePath:line:column:_:)`.
@discardableResult
public func expectReleased(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                           column: UInt = #column, _ body: (LeakTracker) async throws -> Void) async rethrows
    -> [String] {
    let tracker = LeakTracker()
    try await body(tracker)
    return reportLeaks(tracker, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Where `expectReleased` was called, in the forms both Swift Testing and XCTest take. Plain `#fileID`/`#line`
/// defaults rather than Swift Testing's `#_sourceLocation`, which would make an XCTest file import Testing.
private struct CallSite {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}

private func reportLeaks(_ tracker: LeakTracker, at site: CallSite) -> [String] {
    let leaked = tracker.alive
    for label in leaked {
        let message = "\(label) is still alive after the scope ended (leak or retain cycle)"
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
        } else {
            #if canImport(XCTest)
            XCTFail(message, file: site.filePath, line: site.line)
            #else
            programmerErrorInTesting("expectReleased: \(message); no Swift Testing or XCTest test to report it to")
            #endif
        }
    }
    return leaked
}
