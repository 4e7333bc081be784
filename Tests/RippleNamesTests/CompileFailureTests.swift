// Code that must not compile, checked by compiling it: a snippet is typechecked with `swiftc` against the modules
// this test build made, and must fail with the expected diagnostic; each has a control that must compile, so a
// failure for any other reason (a missing module, a moved build folder) fails the test instead of passing it.
import Foundation
import Testing

/// Typechecks `source` as a `main.swift` importing Ripple; returns the exit status and the diagnostics.
private func typecheck(_ source: String) throws -> (status: Int32, output: String) {
    // The test binary sits in the build folder (`.build/<triple>/debug/RipplePackageTests.xctest`), beside the
    // `Modules` folder of the package's modules.
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let modules = binary.deletingLastPathComponent().appendingPathComponent("Modules").path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-compile-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("main.swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, file.path]
    // Diagnostics go to a file, not a pipe: a child process another test spawns meanwhile (an exit test) can inherit
    // a pipe's write end and hold it open, so reading a pipe to its end could wait for that child instead.
    let log = folder.appendingPathComponent("diagnostics.txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return (process.terminationStatus, output)
}

@Suite("Code that must not compile", .serialized)
struct CompileFailureTests {
    @Test("subscribe(value:) on a signal that can fail does not compile: the error needs a handler")
    func noSilentErrorDrop() throws {
        let control = try typecheck("""
            import Ripple
            struct E: Error {}
            let kept = Signal<Int, any Error>.fail(E()).subscribe(value: { print($0) }, error: { print($0) })
            let never = Signal<Int, Never>.just(1).subscribe(value: { print($0) })
            let trailing = Signal<Int, Never>.just(1).subscribe { print($0) }
            """)
        #expect(control.status == 0, "\(control.output)")
        let dropped = try typecheck("""
            import Ripple
            struct E: Error {}
            let e = E()
            let kept = Signal<Int, any Error>.fail(e).subscribe(value: { print($0) })
            """)
        #expect(dropped.status != 0)
        #expect(dropped.output.contains("'any Error' and 'Never' be equivalent")
                    || dropped.output.contains("missing argument for parameter 'error'"), "\(dropped.output)")
        let trailing = try typecheck("""
            import Ripple
            let kept = Signal<Int, any Error>.just(1).subscribe { print($0) }
            """)
        #expect(trailing.status != 0, "\(trailing.output)")
    }

    @Test("a dropped handle warns: subscribe is not @discardableResult")
    func droppedHandleWarns() throws {
        let result = try typecheck("""
            import Ripple
            Signal<Int, Never>.never.subscribe(value: { print($0) })
            """)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("warning: result of call to 'subscribe(value:complete:)' is unused"),
                "\(result.output)")
    }

    @Test("Combine's spellings fail with a pointer to Ripple's", arguments: [
        ("Signal<Int, Never>.just(1).sink { print($0) }", "renamed to 'subscribe(value:)'"),
        ("Signal<Int, Never>.just(1).sink(receiveCompletion: { _ in }, receiveValue: { print($0) })",
         "subscribe(value:error:complete:)"),
        ("Signal<Int, Never>.just(1).receive(on: QueueScheduler.main)", "renamed to 'deliver(on:)'"),
        ("Signal<Int, Never>.just(1).removeDuplicates()", "renamed to 'distinctUntilChanged()'"),
        ("Signal<Int, Never>.just(1).eraseToAnyPublisher()", "already type-erased"),
        ("Signal<Int, Never>.just(1).handleEvents(receiveOutput: { print($0) })",
         "renamed to 'handleEvents(subscribed:value:error:complete:disposed:)'"),
        ("final class M { var n = 0 }; Signal<Int, Never>.just(1).assign(to: \\.n, on: M())", "subscribe(value:"),
        ("MutableNode(1).sink { print($0) }", "listened(by: owner).withBlock"),
        ("MutableNode(1).removeDuplicates()", "renamed to 'distinctUntilChanged()'"),
        ("MutableNode(1).receive(on: QueueScheduler.main)", "renamed to 'deliver(on:)'"),
        ("MutableNode(1).handleEvents(receiveOutput: { print($0) })", "renamed to 'handleEvents(value:)'"),
    ])
    func combineSpellings(code: String, expected: String) throws {
        let result = try typecheck("import Ripple\n_ = { \(code) }\n")
        #expect(result.status != 0)
        #expect(result.output.contains("unavailable"), "\(result.output)")
        #expect(result.output.contains(expected), "\(result.output)")
    }
}
