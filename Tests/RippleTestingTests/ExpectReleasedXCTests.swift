import RippleTesting
import XCTest

/// `expectReleased` inside an XCTestCase: a leak must fail the XCTest test (an `XCTFail` at the caller's line), not
/// vanish into a Swift Testing issue nobody collects. The failures are captured here instead of recorded, so the
/// test can check them and still pass.
final class ExpectReleasedXCTests: XCTestCase {
    final class Parent {
        var child: Child?
    }

    final class Child {
        var parent: Parent?
    }

    private var failures: [(description: String, line: Int)] = []

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        failures.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        failures.append((description, lineNumber))
    }
    #endif

    func testALeakFailsTheXCTest() {
        let line = #line + 1
        let leaked = expectReleased { tracker in
            let parent = tracker.track(Parent(), "parent")
            let child = tracker.track(Child(), "child")
            parent.child = child
            child.parent = parent
        }
        XCTAssertEqual(leaked, ["parent", "child"])
        XCTAssertEqual(failures.map(\.line), [line, line])
        XCTAssertTrue(failures[0].description.contains("parent is still alive after the scope ended"),
                      failures[0].description)
    }

    func testNothingIsReportedWhenEverythingIsFreed() {
        let leaked = expectReleased { tracker in
            let parent = tracker.track(Parent(), "parent")
            parent.child = tracker.track(Child(), "child")
        }
        XCTAssertEqual(leaked, [])
        XCTAssertTrue(failures.isEmpty)
    }
}
