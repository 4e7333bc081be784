@testable import RippleTour
import Testing

@Suite("ripple-tour command line")
struct TourCommandLineTests {
    @Test func noArgumentsRunsEverySectionInOrder() {
        #expect(Tour.parse([]) == .run(Tour.sections.map(\.name)))
    }

    @Test func sectionSelectsOne() {
        #expect(Tour.parse(["--section", "core"]) == .run(["core"]))
    }

    @Test func helpListsEverySection() {
        #expect(Tour.parse(["--help"]) == .help)
        for section in Tour.sections {
            #expect(Tour.usage.contains(section.name))
        }
    }

    @Test func unknownArgumentsAreRefusedClearly() {
        #expect(Tour.parse(["--bogus"]) == .invalid("unknown argument '--bogus'"))
        #expect(Tour.parse(["--section", "nope"]) == .invalid("unknown section 'nope'"))
        #expect(Tour.parse(["--section"]) == .invalid("--section needs a section name"))
    }

    @Test func coreSectionPrintsExactlyOnceCancellation() async {
        let lines = await tourLines("core")
        #expect(lines.contains("bag holds 3 cancellables"))
        #expect(lines.filter { $0.hasPrefix("cancelled ") } == [
            "cancelled search request", "cancelled timer", "cancelled listener",
        ])
        #expect(lines.contains("bag cancelled twice; each action ran once; bag holds 0"))
        #expect(lines.suffix(2) == ["owner alive: cancelled = false", "owner freed: cancelled = true"])
    }
}

@Suite("the tour transcript checker")
struct TourTranscriptCheckerTests {
    @Test func acceptsLinesInOrderWithOthersBetween() {
        expectInOrder(["a", "c"], in: ["a", "b", "c"])
    }

    @Test func rejectsMissingAndOutOfOrderLines() {
        withKnownIssue { expectInOrder(["c", "a"], in: ["a", "b", "c"]) }
        withKnownIssue { expectInOrder(["d"], in: ["a", "b", "c"]) }
    }
}
