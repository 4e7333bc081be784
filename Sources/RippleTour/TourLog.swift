import RippleCore

/// Collects what a tour section prints, so the tour's tests can check the same lines a user sees.
///
/// Listeners and subscribers print into it from any thread; `@unchecked Sendable` because `lines` is only touched
/// under its `Locked` lock.
final class TourLog: @unchecked Sendable {
    private let recorded = Locked<[String]>([])
    private let echo: Bool
    /// Where sections write files (the nodes section's graph): the current directory for users, a temporary one in
    /// tests.
    let outputDirectory: String

    init(echo: Bool, outputDirectory: String) {
        self.echo = echo
        self.outputDirectory = outputDirectory
    }

    /// Everything printed so far, in order.
    var lines: [String] {
        recorded.value
    }

    /// A line of output, as the seed document prints it.
    func print(_ line: String) {
        // Record and echo under one lock so the terminal shows the same order the tests check.
        recorded.withLock { lines in
            lines.append(line)
            if echo { Swift.print(line) }
        }
    }

    /// The Swift idea behind the next lines, in one line.
    func code(_ idea: String) {
        print("  » \(idea)")
    }

    func heading(_ title: String) {
        print("")
        print("── \(title) " + String(repeating: "─", count: max(0, 70 - title.count)))
    }
}
