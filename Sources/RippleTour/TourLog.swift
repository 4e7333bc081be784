/// Collects what a tour section prints, so the tour's tests can check the same lines a user sees.
final class TourLog {
    private(set) var lines: [String] = []
    private let echo: Bool

    init(echo: Bool) {
        self.echo = echo
    }

    /// A line of output, as the seed document prints it.
    func print(_ line: String) {
        lines.append(line)
        if echo { Swift.print(line) }
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
