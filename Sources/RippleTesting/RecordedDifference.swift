import Testing

// A marble assertion in one `#expect` with a readable diff: `#expect(recorder.difference(from: expected).isEmpty)`.
// Swift Testing prints the value left of `.isEmpty` when the expectation fails, so this type's description is the
// diff itself, one event a line: "  " in both, "+ " recorded but not expected, "- " expected but not recorded.

/// How a recorder's events differ from the expected ones; empty when they match, time for time.
///
/// ```swift
/// #expect(recorder.difference(from: [.value(.seconds(210), 20), .completed(.seconds(300))]).isEmpty)
/// // on failure, when the chain sent 30 at 240 and completed at 310:
/// //   value(20) @ 210.0 seconds
/// // + value(30) @ 240.0 seconds
/// // - completed @ 300.0 seconds
/// // + completed @ 310.0 seconds
/// ```
public struct RecordedDifference<Value: Sendable & Equatable>: Sendable, CustomStringConvertible,
    CustomTestStringConvertible {
    /// The recorded events.
    public let recorded: [Recorded<Value>]
    /// The expected events.
    public let expected: [Recorded<Value>]

    /// Whether the recorded events are the expected ones.
    public var isEmpty: Bool {
        recorded == expected
    }

    /// One line per event: `  ` in both, `+ ` recorded only, `- ` expected only, in virtual-time order.
    public var description: String {
        if isEmpty { return "no difference: \(recorded.count) events as expected" }
        let changes = recorded.difference(from: expected)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in changes {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var lines = ["recorded (+) vs expected (-):"]
        var old = 0, new = 0
        while old < expected.count || new < recorded.count {
            // Both sides changed here: the earlier event first, so the listing reads in virtual time.
            let removal = removed.contains(old), insertion = inserted.contains(new)
            if removal && !(insertion && recorded[new].time < expected[old].time) {
                lines.append("- \(expected[old])")
                old += 1
            } else if insertion {
                lines.append("+ \(recorded[new])")
                new += 1
            } else {
                lines.append("  \(expected[old])")
                old += 1
                new += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    public var testDescription: String {
        description
    }
}

extension Recorder where Value: Equatable {
    /// The difference between what was recorded and `expected`, to assert a whole timed sequence in one `#expect`
    /// with a readable diff: `#expect(recorder.difference(from: expected).isEmpty)`.
    public func difference(from expected: [Recorded<Value>]) -> RecordedDifference<Value> {
        RecordedDifference(recorded: events, expected: expected)
    }
}
