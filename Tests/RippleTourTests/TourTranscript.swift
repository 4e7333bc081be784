import Foundation
@testable import RippleTour
import Testing

/// Checks that `expected` appears in `lines` in this order (other lines may stand between), and names the first
/// expected line that is missing so a failure says which seed value went wrong.
func expectInOrder(_ expected: [String], in lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    var remaining = lines[...]
    for line in expected {
        guard let index = remaining.firstIndex(of: line) else {
            Issue.record("missing, or out of order: \"\(line)\"", sourceLocation: sourceLocation)
            return
        }
        remaining = remaining[(index + 1)...]
    }
}

/// Runs one section in-process, as `ripple-tour --section name` does, and returns what it printed. Files the section
/// writes go to `outputDirectory` (a fresh temporary folder unless given).
func tourLines(_ name: String, outputDirectory: String = temporaryTourDirectory()) async -> [String] {
    await Tour.run([name], echo: false, outputDirectory: outputDirectory)
}

func temporaryTourDirectory() -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ripple-tour-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
