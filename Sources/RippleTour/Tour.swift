import Foundation

/// The tour's sections in order, and its command line.
enum Tour {
    static let sections: [TourSection] = [
        coreSection,
        nodesSection,
        signalsSection,
        pipesSection,
        pipelineSection,
        lifecycleSection,
        appSection,
    ]

    static let usage = """
        usage: ripple-tour [--section NAME] [--help]

        Runs every seed library's documented scenario with Ripple and prints what the seed prints.

        sections:
        \(sections.map { "  " + $0.name + String(repeating: " ", count: max(1, 12 - $0.name.count)) + $0.summary }
            .joined(separator: "\n"))
        """

    enum Command: Equatable {
        case help
        case run([String])
        case invalid(String)
    }

    static func parse(_ arguments: [String]) -> Command {
        var names: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--section", "-s":
                guard let name = remaining.popFirst() else {
                    return .invalid("--section needs a section name")
                }
                guard sections.contains(where: { $0.name == name }) else {
                    return .invalid("unknown section '\(name)'")
                }
                names.append(name)
            default:
                return .invalid("unknown argument '\(argument)'")
            }
        }
        return .run(names.isEmpty ? sections.map(\.name) : names)
    }

    /// Runs the named sections in tour order and returns what they printed.
    @discardableResult
    static func run(_ names: [String], echo: Bool,
                    outputDirectory: String = FileManager.default.currentDirectoryPath) async -> [String] {
        let log = TourLog(echo: echo, outputDirectory: outputDirectory)
        for section in sections where names.contains(section.name) {
            await section.run(log)
        }
        return log.lines
    }
}
